"""Issue 6: Yjs providers on Parley's y-websocket endpoint. pycrdt's `Provider` (the engine
pycrdt-websocket builds on) over a `websockets` connection edits a room's document together with
a second provider; both converge, the text survives a restart, and only room members get in."""
import asyncio

import pytest
from pycrdt import Doc, Provider, Text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from chat_support import APP_A, ChatServer, create_user, mint, unique


class WebsocketChannel:
    """pycrdt's Channel protocol over a `websockets` client connection."""

    def __init__(self, websocket, path):
        self._websocket = websocket
        self._path = path

    @property
    def path(self):
        return self._path

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.recv()
        except ConnectionClosed:
            raise StopAsyncIteration()

    async def send(self, message):
        await self._websocket.send(message)

    async def recv(self):
        while True:
            message = await self._websocket.recv()
            if isinstance(message, bytes):
                return message


@pytest.fixture(scope="module")
def docs_server():
    server = ChatServer().start()
    yield server
    server.stop()


def setup_room(server):
    alice, bob, carol = unique("alice"), unique("bob"), unique("carol")
    for user in (alice, bob, carol):
        create_user(server, APP_A, user)
    room = server.ok("POST", "/v1/rooms", token=mint(APP_A, alice), json_body={"kind": "private", "member_ids": [bob]})
    return room["id"], alice, bob, carol


def doc_url(server, room, name, user):
    return f"ws://127.0.0.1:{server.port}/v1/rooms/{room}/docs/{name}/ws?token={mint(APP_A, user)}"


async def wait_for(predicate, timeout=10.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def edit_together(server, room, name, alice, bob):
    doc_a, doc_b = Doc(), Doc()
    text_a, text_b = doc_a.get("text", type=Text), doc_b.get("text", type=Text)
    async with connect(doc_url(server, room, name, alice)) as ws_a, connect(doc_url(server, room, name, bob)) as ws_b:
        async with Provider(doc_a, WebsocketChannel(ws_a, name)) as provider_a, \
                Provider(doc_b, WebsocketChannel(ws_b, name)) as provider_b:
            await asyncio.wait_for(provider_a.synced.wait(), 10)
            await asyncio.wait_for(provider_b.synced.wait(), 10)
            text_a += "Hello from alice. "
            text_b += "Bob was here. "
            text_b.insert(0, ">> ")
            text_a += "Ünïcödé ✓"
            converged = await wait_for(lambda: str(text_a) == str(text_b) and "Bob" in str(text_a) and "✓" in str(text_b))
            assert converged, (str(text_a), str(text_b))
            return str(text_a)


async def read_text(server, room, name, user):
    doc = Doc()
    text = doc.get("text", type=Text)
    async with connect(doc_url(server, room, name, user)) as ws:
        async with Provider(doc, WebsocketChannel(ws, name)) as provider:
            await asyncio.wait_for(provider.synced.wait(), 10)
            await wait_for(lambda: len(str(text)) > 0, timeout=3)
            return str(text)


def test_two_providers_converge_and_the_text_persists(docs_server):
    room, alice, bob, _ = setup_room(docs_server)
    final = asyncio.run(edit_together(docs_server, room, "notes", alice, bob))
    print("converged text:", repr(final))
    assert all(part in final for part in ("Hello from alice. ", "Bob was here. ", ">> ", "Ünïcödé ✓"))
    # A later client gets the whole document from the server.
    assert asyncio.run(read_text(docs_server, room, "notes", bob)) == final
    # And after a crash and restart, from the database.
    docs_server.kill()
    docs_server.start()
    assert asyncio.run(read_text(docs_server, room, "notes", alice)) == final


def test_outsiders_and_bad_tokens_are_refused(docs_server):
    room, alice, _, carol = setup_room(docs_server)

    async def outsider():
        async with connect(doc_url(docs_server, room, "secret", alice)) as ws:
            await ws.recv()  # the document exists now, opened by a member
        async with connect(doc_url(docs_server, room, "secret", carol)) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await ws.recv()
            return closed.value.rcvd.code

    assert asyncio.run(outsider()) == 4403

    async def refused(url):
        with pytest.raises(InvalidStatus) as error:
            async with connect(url):
                pass
        return error.value.response.status_code

    forged = f"ws://127.0.0.1:{docs_server.port}/v1/rooms/{room}/docs/x/ws?token={mint(APP_A, alice, secret='wrong')}"
    expired = f"ws://127.0.0.1:{docs_server.port}/v1/rooms/{room}/docs/x/ws?token={mint(APP_A, alice, now=1, ttl=60)}"
    missing = f"ws://127.0.0.1:{docs_server.port}/v1/rooms/{room}/docs/x/ws"
    assert [asyncio.run(refused(url)) for url in (forged, expired, missing)] == [401, 401, 401]
