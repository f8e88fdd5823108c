"""The real Yjs and y-websocket in headless Chromium against Parley's y-websocket endpoint.

Two pages edit one document holding a formatted Y.Text('content'), a Y.Map, a Y.Array (with a
nested Y.Map) and a Y.XmlFragment; they converge through Parley alone (disableBc). A third
page that opens the document later gets everything from the server, and a pycrdt provider
(the engine of pycrdt-websocket) reads the same content.

The browser libraries come from ../shared/js-peers, served with its import map by the
test's own static server (never by Parley). Chromium is driven over the DevTools protocol
(`--remote-debugging-port`) with the websockets library.
"""
import asyncio
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from pycrdt import Array, Doc, Map, Provider, Text, XmlFragment
from websockets.asyncio.client import connect

from chat_support import ChatServer
from conftest import free_port
from test_cors_chromium import chromium, wait_for_http
from test_docs_ywebsocket import WebsocketChannel, doc_url, setup_room

REPO = Path(__file__).resolve().parents[2]


def origin_checkout():
    """The checkout a local clone was made from (its ../shared holds the peers when this one's does not)."""
    try:
        url = subprocess.run(["git", "-C", str(REPO), "config", "--get", "remote.origin.url"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(url) if url.startswith("/") else None


# ../shared/js-peers beside the checkout (or beside the directory of worktrees, or beside the
# checkout a local clone came from), or PARLEY_JS_PEERS.
_origin = origin_checkout()
JS_PEERS = next((path for path in [Path(os.environ.get("PARLEY_JS_PEERS", "/nonexistent")),
                                   REPO.parent / "shared" / "js-peers", REPO.parent.parent / "shared" / "js-peers",
                                   *([_origin.parent / "shared" / "js-peers"] if _origin else [])]
                 if (path / "importmap.json").exists()), REPO.parent / "shared" / "js-peers")

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>yjs on parley</title>
<script type="importmap">%(importmap)s</script></head>
<body><script type="module">
import * as Y from 'yjs'
import { WebsocketProvider } from 'y-websocket'
const q = new URLSearchParams(location.search)
const who = q.get('who')
const doc = new Y.Doc()
const provider = new WebsocketProvider('ws://127.0.0.1:' + q.get('port') + '/v1/rooms/' + q.get('room') + '/docs',
  q.get('name') + '/ws', doc, { disableBc: true, params: { token: q.get('token') } })
window.provider = provider
const text = doc.getText('content')
const meta = doc.getMap('meta')
const items = doc.getArray('items')
const prose = doc.getXmlFragment('prose')
window.snapshot = () => JSON.stringify({
  content: text.toDelta(), meta: meta.toJSON(), items: items.toJSON(), prose: prose.toString(),
  synced: provider.synced
})
provider.on('sync', synced => {
  if (!synced || !q.get('edit') || window.edited) return
  window.edited = true
  doc.transact(() => {
    text.insert(text.length, who + ' plain ')
    text.insert(text.length, who + ' bold ', { bold: true })
    meta.set('title-' + who, 'Board of ' + who)
    const nested = new Y.Map()
    nested.set('by', who)
    items.push(['task of ' + who, nested])
    const p = new Y.XmlElement('p')
    p.setAttribute('data-who', who)
    p.insert(0, [new Y.XmlText('paragraph by ' + who)])
    prose.push([p])
  })
  // A second change on its own: formatting part of the text.
  text.format(0, 3, { italic: true })
})
</script></body></html>
"""


class DevTools:
    """A headless Chromium with its DevTools endpoint; pages are evaluated over CDP."""

    def __init__(self):
        self.port = free_port()
        self.profile = tempfile.mkdtemp(prefix="parley-chromium-")
        self.process = subprocess.Popen(
            [chromium(), "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
             f"--user-data-dir={self.profile}", f"--remote-debugging-port={self.port}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_http(f"http://127.0.0.1:{self.port}/json/version", timeout=30)
        self.ids = itertools.count(1)

    def open(self, url):
        """A new tab showing `url` (navigated over CDP: /json/new would cut the URL at '&')."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/json/new?about:blank", method="PUT")
        with urllib.request.urlopen(request, timeout=10) as answer:
            target = json.loads(answer.read())["webSocketDebuggerUrl"]
        asyncio.run(self.call(target, "Page.navigate", {"url": url}))
        return target

    async def call(self, target, method, params):
        async with connect(target, max_size=None) as ws:
            call = next(self.ids)
            await ws.send(json.dumps({"id": call, "method": method, "params": params}))
            while True:
                answer = json.loads(await ws.recv())
                if answer.get("id") == call:
                    return answer.get("result", {})

    async def evaluate(self, target, expression):
        result = await self.call(target, "Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def close(self):
        self.process.terminate()
        self.process.wait(10)
        shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture
def vendor_server():
    """The test's own static server: the page, and js-peers under /vendor/."""
    if not (JS_PEERS / "importmap.json").exists():
        pytest.skip(f"{JS_PEERS} is missing")
    root = Path(tempfile.mkdtemp(prefix="parley-yjs-page-"))
    (root / "vendor").symlink_to(JS_PEERS)
    (root / "editor.html").write_text(PAGE % {"importmap": (JS_PEERS / "importmap.json").read_text()})
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "--directory", str(root)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/editor.html")
        yield port
    finally:
        process.terminate()
        process.wait(10)


async def snapshot(browser, target):
    value = await browser.evaluate(target, "window.snapshot ? window.snapshot() : null")
    return json.loads(value) if value else None


async def wait_until(browser, targets, predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while True:
        shots = [await snapshot(browser, target) for target in targets]
        if all(shots) and predicate(shots):
            return shots
        if time.monotonic() > deadline:
            pytest.fail(f"pages did not get there: {shots}")
        await asyncio.sleep(0.2)


def complete(shot):
    return (shot["synced"] and len(shot["meta"]) == 2 and len(shot["items"]) == 4 and shot["prose"].count("<p") == 2
            and any(op.get("attributes", {}).get("italic") for op in shot["content"]))


async def pycrdt_reads(server, room, name, user):
    doc = Doc()
    text, meta, items = doc.get("content", type=Text), doc.get("meta", type=Map), doc.get("items", type=Array)
    prose = doc.get("prose", type=XmlFragment)
    async with connect(doc_url(server, room, name, user)) as ws:
        async with Provider(doc, WebsocketChannel(ws, name)) as provider:
            await asyncio.wait_for(provider.synced.wait(), 10)
            deadline = time.monotonic() + 10
            while len(items) < 4 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            return text.diff(), meta.to_py(), items.to_py(), str(prose)


def test_yjs_pages_converge_through_parley_and_a_late_page_gets_everything(vendor_server):
    server = ChatServer().start()
    browser = DevTools()
    try:
        room, alice, bob, _ = setup_room(server)
        base = f"http://127.0.0.1:{vendor_server}/editor.html?port={server.port}&room={room}&name=board"

        def page(user, edit):
            from chat_support import APP_A, mint
            return browser.open(f"{base}&who={user}&token={mint(APP_A, user)}" + ("&edit=1" if edit else ""))

        editors = [page(alice, True), page(bob, True)]
        first, second = asyncio.run(wait_until(browser, editors, lambda shots: complete(shots[0]) and shots[0] == shots[1]))
        late = page(bob, False)
        [third] = asyncio.run(wait_until(browser, [late], lambda shots: complete(shots[0])))
        assert third == first == second
        # Where concurrent runs meet the formatting marks decides their attributes; both pages agree.
        bold = "".join(op["insert"] for op in first["content"] if op.get("attributes", {}).get("bold"))
        assert f"{alice} bold " in bold and f"{bob} bold " in bold, first["content"]
        assert sorted(item["by"] for item in first["items"] if isinstance(item, dict)) == sorted([alice, bob])

        # pycrdt, the engine of pycrdt-websocket, reads the same document from the server.
        diff, meta, items, prose = asyncio.run(pycrdt_reads(server, room, "board", alice))
        assert [{"insert": run, **({"attributes": attrs} if attrs else {})} for run, attrs in diff] == first["content"]
        assert meta == first["meta"] and items == first["items"]
        assert prose == first["prose"]
    finally:
        browser.close()
        server.stop()
