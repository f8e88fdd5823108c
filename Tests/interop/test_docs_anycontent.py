"""Documents hold any Yjs content, end to end over Parley's y-websocket endpoint with pycrdt
providers: a formatted Text under a root name of the editor's choosing, a Map with nested
values, an Array of maps and an XmlFragment of elements and texts. Two editors converge, a
third that joins later gets everything from the server, updates that reach the server late
and out of order wait there until they can integrate, and the content survives a restart.
"""
import asyncio
import random

from pycrdt import (Array, Doc, Map, Provider, Text, XmlElement, XmlFragment, XmlText, create_update_message)
from websockets.asyncio.client import connect

from chat_support import ChatServer
from test_docs_ywebsocket import WebsocketChannel, doc_url, setup_room, wait_for
from test_ydoc_pycrdt import ROOTS, TEXT_ROOT, content, new_replica

import pytest


@pytest.fixture(scope="module")
def docs_server():
    server = ChatServer().start()
    yield server
    server.stop()


def fill(doc, who):
    text = doc[TEXT_ROOT]
    text.insert(len(str(text).encode()), f"{who} plain ")
    text.insert(len(str(text).encode()), f"{who} bold ", {"bold": True})
    doc["meta"][f"title-{who}"] = f"Board of {who}"
    doc["meta"]["shared"] = Map({"by": who, "tags": Array([who, "x"])})
    doc["items"].append(Map({"label": f"task of {who}", "done": False}))
    doc["prose"].children.append(XmlElement("p", {"data-who": who}, [XmlText(f"paragraph by {who}")]))
    doc["notes ✓ 2"].insert(0, "ü")


async def read_document(server, room, name, user):
    doc, _ = new_replica(random.randint(10_000, 1 << 30))
    async with connect(doc_url(server, room, name, user)) as ws:
        async with Provider(doc, WebsocketChannel(ws, name)) as provider:
            await asyncio.wait_for(provider.synced.wait(), 10)
            await wait_for(lambda: len(doc["items"]) > 0, timeout=3)
            return content(doc)


async def edit_together(server, room, name, alice, bob):
    doc_a, _ = new_replica(101)
    doc_b, _ = new_replica(202)
    async with connect(doc_url(server, room, name, alice)) as ws_a, connect(doc_url(server, room, name, bob)) as ws_b:
        async with Provider(doc_a, WebsocketChannel(ws_a, name)) as provider_a, \
                Provider(doc_b, WebsocketChannel(ws_b, name)) as provider_b:
            await asyncio.wait_for(provider_a.synced.wait(), 10)
            await asyncio.wait_for(provider_b.synced.wait(), 10)
            fill(doc_a, "alice")
            fill(doc_b, "bob")
            doc_a["items"][0]["done"] = True
            doc_b[TEXT_ROOT].format(0, 3, {"italic": True})
            converged = await wait_for(lambda: content(doc_a) == content(doc_b) and len(doc_a["items"]) == 2)
            assert converged, (content(doc_a), content(doc_b))
            return content(doc_a)


def test_editors_with_every_shared_type_converge_and_a_late_joiner_gets_everything(docs_server):
    room, alice, bob, _ = setup_room(docs_server)
    final = asyncio.run(edit_together(docs_server, room, "board", alice, bob))
    assert [run for run, attrs in final[TEXT_ROOT] if attrs and attrs.get("bold")]
    assert {item["label"] for item in final["items"]} == {"task of alice", "task of bob"}
    assert asyncio.run(read_document(docs_server, room, "board", bob)) == final
    docs_server.kill()
    docs_server.start()
    assert asyncio.run(read_document(docs_server, room, "board", alice)) == final


def test_updates_delivered_late_and_out_of_order_wait_on_the_server(docs_server):
    room, alice, _, _ = setup_room(docs_server)
    rng = random.Random(7)
    doc, updates = new_replica(303)
    # Each store on the server waits for its commit, so the edits come as a few transactions.
    for round_number in range(12):
        with doc.transaction():
            fill(doc, f"r{round_number}")
        if round_number % 3 == 2:
            with doc.transaction():
                del doc["items"][0]
                doc["meta"]["shared"]["tags"].append(round_number)
    shuffled = list(updates)
    rng.shuffle(shuffled)

    async def send_shuffled():
        # One connection per few updates, as reconnecting clients would deliver them.
        for start in range(0, len(shuffled), 5):
            async with connect(doc_url(docs_server, room, "late", alice)) as ws:
                for update in shuffled[start:start + 5]:
                    await ws.send(create_update_message(update))
                # The server answers step 1 after handling everything sent before it.
                await ws.send(bytes([0, 0, 1, 0]))  # sync step 1 with an empty state vector
                while (await ws.recv())[:2] != bytes([0, 1]):
                    pass

    asyncio.run(send_shuffled())
    assert asyncio.run(read_document(docs_server, room, "late", alice)) == content(doc)
    assert set(ROOTS) <= set(content(doc))
