"""ParleyKit writes Yjs content other peers read: a `DocumentSession` (the ParleyDocPeer process)
edits named texts, a map and an array of JSON values in a room's document; pycrdt, connected
through pycrdt-websocket's client channel, reads exactly that content, and so do the real Yjs in
Chromium (../shared/js-peers, as in test_docs_yjs_chromium.py) and the REST reader of the
server. pycrdt's edits of the same roots reach ParleyKit as change events, with
the values pycrdt wrote. Waits poll with deadlines; nothing is timed."""
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest
from httpx_ws import aconnect_ws
from pycrdt import Array, Doc, Map, Provider, Text
from pycrdt.websocket.websocket import HttpxWebsocket

from chat_support import APP_A, mint
from conftest import free_port
from test_cors_chromium import wait_for_http
from test_docs_yjs_chromium import JS_PEERS, DevTools
from test_docs_yjs_chromium import wait_until as chromium_wait_until
from test_docs_parleykit import DEADLINE, DocPeer, docs_server, setup_room, wait_until  # noqa: F401 (fixture)

TITLE = "Groceries ✓ 😀"
CHECKLIST = [{"item": "milk", "done": False}, "middle", {"item": "eggs", "done": True, "qty": 12}, 3.25]
META = {"owner": "alice", "count": 3, "flags": {"a": True, "b": [1, 2.5, None, "x"]}, "big": 12345678901, "neg": -7}


def value(peer, kind, root):
    answer = peer.command(f"get {kind} {root}")
    assert answer.startswith("VALUE "), answer
    return json.loads(answer[6:])


def write_with_parleykit(peer):
    commands = [
        f"tinsert title 0 {TITLE}",
        "tinsert body 0 Milk and eggs",
        "tdelete body 4 4",
        "tinsert body 9 , bread",
        *(f"mset meta {key} {json.dumps(item)}" for key, item in META.items()),
        "mset meta gone true",
        "mdel meta gone",
        'ainsert checklist 0 [{"item": "milk", "done": false}, {"item": "eggs", "done": true, "qty": 12}]',
        'ainsert checklist 1 ["middle", 42]',
        "adel checklist 2 1",
        "ainsert checklist 3 [3.25]",
    ]
    for command in commands:
        assert peer.command(command) == "OK", command
    assert value(peer, "text", "body") == "Milk eggs, bread"
    assert value(peer, "array", "checklist") == CHECKLIST
    assert value(peer, "map", "meta") == META


def test_pycrdt_reads_what_parleykit_writes_and_the_other_way(docs_server):
    room, alice, bob = setup_room(docs_server)
    peer = DocPeer(docs_server, mint(APP_A, alice), room, "lists")
    try:
        write_with_parleykit(peer)
        asyncio.run(read_and_answer_with_pycrdt(docs_server, room, bob, peer))
    finally:
        peer.close()
    # The server's replica holds the same content (the REST reader).
    body = docs_server.ok("GET", f"/v1/rooms/{room}/docs/lists", token=mint(APP_A, bob))
    assert body["content"]["title"] == TITLE + " (pycrdt)"
    assert body["content"]["meta"]["by-pycrdt"] == {"n": 1}


async def read_and_answer_with_pycrdt(server, room, bob, peer):
    doc = Doc()
    title, body = doc.get("title", type=Text), doc.get("body", type=Text)
    meta, checklist = doc.get("meta", type=Map), doc.get("checklist", type=Array)
    url = f"http://127.0.0.1:{server.port}/v1/rooms/{room}/docs/lists/ws?token={mint(APP_A, bob)}"
    async with httpx.AsyncClient() as client, aconnect_ws(url, client) as websocket:
        async with Provider(doc, HttpxWebsocket(websocket, "lists")) as provider:
            await asyncio.wait_for(provider.synced.wait(), DEADLINE)
            assert await wait_until(lambda: len(checklist) == 4 and len(meta) == len(META))
            assert str(title) == TITLE
            assert str(body) == "Milk eggs, bread"
            assert meta.to_py() == META
            assert checklist.to_py() == CHECKLIST

            # pycrdt edits every root; ParleyKit sees the changes and the values.
            title += " (pycrdt)"
            meta["by-pycrdt"] = {"n": 1}
            del meta["neg"]
            checklist.append(Map({"item": "bread"}))
            del checklist[1]
            # The peer's commands block: they run in a thread while the provider sends.
            for root in ("title", "meta", "checklist"):
                assert await asyncio.to_thread(peer.command, f"waitchange {root}") == "OK", root
            assert await wait_until(lambda: value(peer, "array", "checklist") == checklist.to_py())
            assert value(peer, "text", "title") == TITLE + " (pycrdt)"
            assert value(peer, "map", "meta") == meta.to_py()
            assert "neg" not in value(peer, "map", "meta")


READER_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>yjs reads parleykit</title>
<script type="importmap">%(importmap)s</script></head>
<body><script type="module">
import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
const q = new URLSearchParams(location.search)
const doc = new Y.Doc()
const provider = new WebsocketProvider('ws://127.0.0.1:' + q.get('port') + '/v1/rooms/' + q.get('room') + '/docs',
  q.get('name') + '/ws', doc, { disableBc: true, params: { token: q.get('token') } })
window.snapshot = () => JSON.stringify({
  title: doc.getText('title').toString(), body: doc.getText('body').toString(),
  meta: doc.getMap('meta').toJSON(), checklist: doc.getArray('checklist').toJSON(), synced: provider.synced
})
</script></body></html>
"""


@pytest.fixture
def reader_page():
    """The test's own static server: the reader page, and js-peers under /vendor/."""
    if not (JS_PEERS / "importmap.json").exists():
        pytest.skip(f"{JS_PEERS} is missing")
    root = Path(tempfile.mkdtemp(prefix="parley-yjs-reader-"))
    (root / "vendor").symlink_to(JS_PEERS)
    (root / "reader.html").write_text(READER_PAGE % {"importmap": (JS_PEERS / "importmap.json").read_text()})
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "--directory", str(root)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/reader.html")
        yield port
    finally:
        process.terminate()
        process.wait(10)


def test_the_real_yjs_in_chromium_reads_what_parleykit_writes(docs_server, reader_page):
    room, alice, bob = setup_room(docs_server)
    peer = DocPeer(docs_server, mint(APP_A, alice), room, "yjs-lists")
    browser = DevTools()
    try:
        write_with_parleykit(peer)
        page = browser.open(f"http://127.0.0.1:{reader_page}/reader.html?port={docs_server.port}&room={room}"
                            f"&name=yjs-lists&token={mint(APP_A, bob)}")
        [shot] = asyncio.run(chromium_wait_until(browser, [page], lambda shots: len(shots[0]["checklist"]) == 4))
        assert shot["title"] == TITLE
        assert shot["body"] == "Milk eggs, bread"
        assert shot["meta"] == META
        assert shot["checklist"] == CHECKLIST
    finally:
        browser.close()
        peer.close()
