"""Issue 6: pycrdt-websocket and ParleyKit on one document. A ParleyKit `DocumentSession`
(the ParleyDocPeer process, driven by lines on stdin) and a pycrdt document connected through
pycrdt-websocket's client channel (`HttpxWebsocket` over httpx-ws, synced by pycrdt's
`Provider`, the successor of pycrdt-websocket's `WebsocketProvider`) edit a room's document on
Parley's y-websocket endpoint at the same time; both end with the same text holding both
sides' edits. Cursors cross too: ParleyKit's caret, announced as a Yjs relative position,
resolves with pycrdt's StickyIndex, and pycrdt's resolves in ParleyKit; both follow the text.
Waits poll with deadlines; nothing is timed."""
import asyncio
import json
import queue
import subprocess
import threading

import httpx
import pytest
from httpx_ws import aconnect_ws
from pycrdt import Assoc, Awareness, Doc, Provider, StickyIndex, Text, create_awareness_message, read_message
from pycrdt.websocket.websocket import HttpxWebsocket

from chat_support import APP_A, BIN_DIR, ChatServer, create_user, mint, unique

DEADLINE = 20.0


class RecordingChannel(HttpxWebsocket):
    """pycrdt-websocket's client channel, keeping the awareness messages that pass by (the
    Provider only syncs the document)."""

    def __init__(self, websocket, path):
        super().__init__(websocket, path)
        self.awareness_messages = []

    async def recv(self):
        message = await super().recv()
        if message and message[0] == 1:
            self.awareness_messages.append(message)
        return message


class DocPeer:
    """The ParleyKit document peer: one command line in, one answer line out."""

    def __init__(self, server, token, room, name):
        binary = BIN_DIR / "ParleyDocPeer"
        if not binary.exists():
            pytest.fail(f"{binary} is missing: build it first (swift build --product ParleyDocPeer)")
        self.process = subprocess.Popen(
            [str(binary), "--server", f"http://127.0.0.1:{server.port}", "--token", token, "--room", room,
             "--doc", name, "--app", APP_A["id"]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        # A reader thread: select() on a buffered pipe misses lines already read into the buffer.
        self.lines = queue.Queue()
        threading.Thread(target=self._read_all, daemon=True).start()
        ready = self.read_line()
        assert ready.startswith("READY "), ready

    def _read_all(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def read_line(self, timeout=DEADLINE):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail("the ParleyKit peer did not answer in time")
        if line is None:
            pytest.fail(f"the ParleyKit peer exited ({self.process.poll()})")
        return line

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def command(self, line):
        self.send(line)
        return self.read_line()

    def text(self):
        answer = self.command("text")
        assert answer.startswith("TEXT "), answer
        return json.loads(answer[5:])

    def close(self):
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def docs_server():
    server = ChatServer().start()
    yield server
    server.stop()


def setup_room(server):
    alice, bob = unique("alice"), unique("bob")
    for user in (alice, bob):
        create_user(server, APP_A, user)
    room = server.ok("POST", "/v1/rooms", token=mint(APP_A, alice), json_body={"kind": "private", "member_ids": [bob]})
    return room["id"], alice, bob


async def wait_until(predicate, timeout=DEADLINE):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def test_cursors_cross_as_yjs_sticky_indexes(docs_server):
    """ParleyKit announces its caret as a Yjs relative position that pycrdt's StickyIndex
    resolves, and reads pycrdt's; each follows the text on the other side."""
    room, alice, bob = setup_room(docs_server)
    peer = DocPeer(docs_server, mint(APP_A, alice), room, "cursors")
    try:
        asyncio.run(exchange_cursors(docs_server, room, alice, bob, peer))
    finally:
        peer.close()


async def exchange_cursors(server, room, alice, bob, peer):
    doc = Doc()
    text = doc.get("text", type=Text)
    url = f"http://127.0.0.1:{server.port}/v1/rooms/{room}/docs/cursors/ws?token={mint(APP_A, bob)}"
    async with httpx.AsyncClient() as client, aconnect_ws(url, client) as websocket:
        channel = RecordingChannel(websocket, "cursors")
        async with Provider(doc, channel) as provider:
            await asyncio.wait_for(provider.synced.wait(), DEADLINE)
            assert peer.command("append abcdefghij") == "OK"
            assert await wait_until(lambda: str(text) == "abcdefghij")

            # ParleyKit's caret after "abc" reaches pycrdt as a sticky index at 3.
            assert peer.command("caret 3") == "OK"

            def parleykit_head():
                seen = Awareness(doc)
                for message in channel.awareness_messages:
                    seen.apply_awareness_update(read_message(message[1:]), "remote")
                for state in seen.states.values():
                    if state.get("user", {}).get("name") == alice and "cursor" in state:
                        return StickyIndex.from_json(state["cursor"]["head"], text).get_index()
                return None

            assert await wait_until(lambda: parleykit_head() == 3), channel.awareness_messages
            # pycrdt inserts before it: the same announcement now resolves two further on.
            text.insert(0, "XY")
            assert await wait_until(lambda: parleykit_head() == 5 and peer.text() == "XYabcdefghij")

            # pycrdt's cursor (before "h") reaches ParleyKit, and follows ParleyKit's own insert.
            awareness = Awareness(doc)
            head = StickyIndex.new(text, 9, Assoc.AFTER).to_json()
            awareness.set_local_state({"user": {"name": "pycrdt"}, "cursor": {"anchor": head, "head": head}})
            await channel.send(create_awareness_message(awareness.encode_awareness_update([doc.client_id])))

            def pycrdt_head():
                answer = peer.command("peers")
                assert answer.startswith("PEERS "), answer
                heads = [p["head"] for p in json.loads(answer[6:]) if p["name"] == "pycrdt"]
                return heads[0] if heads else None

            assert await wait_until(lambda: pycrdt_head() == 9)
            assert peer.command("insert 0 ---") == "OK"
            assert pycrdt_head() == 12
            assert await wait_until(lambda: str(text) == "---XYabcdefghij")


def test_pycrdt_websocket_and_a_parleykit_session_edit_together(docs_server):
    room, alice, bob = setup_room(docs_server)
    peer = DocPeer(docs_server, mint(APP_A, alice), room, "shared")
    try:
        final = asyncio.run(edit_together(docs_server, room, bob, peer))
    finally:
        peer.close()
    print("converged text:", repr(final))


async def edit_together(server, room, bob, peer):
    doc = Doc()
    text = doc.get("text", type=Text)
    url = f"http://127.0.0.1:{server.port}/v1/rooms/{room}/docs/shared/ws?token={mint(APP_A, bob)}"
    async with httpx.AsyncClient() as client, aconnect_ws(url, client) as websocket:
        async with Provider(doc, HttpxWebsocket(websocket, "shared")) as provider:
            await asyncio.wait_for(provider.synced.wait(), DEADLINE)

            # ParleyKit starts the text; pycrdt receives it.
            assert peer.command("append Hello from ParleyKit. ") == "OK"
            assert await wait_until(lambda: str(text) == "Hello from ParleyKit. "), str(text)

            # Both edit at once: the peer's commands are queued before pycrdt edits, and their
            # answers are read only after pycrdt's edits went out.
            peer_words = [f"kit{i} " for i in range(25)]
            for i, word in enumerate(peer_words):
                peer.send(f"insert 0 {word}" if i % 2 else f"append {word}")
            py_words = [f"py{i} " for i in range(25)]
            for i, word in enumerate(py_words):
                if i % 2:
                    text.insert(0, word)
                else:
                    text += word
                await asyncio.sleep(0)
            text.insert(0, "Ünïcödé ✓ 😀 ")
            for _ in peer_words:
                assert peer.read_line() == "OK"
            assert peer.command("insert 0 [kit done] ") == "OK"
            text += "[py done]"

            def converged():
                mine = str(text)
                return "[kit done]" in mine and "[py done]" in mine and mine == peer.text()

            assert await wait_until(converged), (str(text), peer.text())
            final = str(text)

            # A deletion from each side, one after the other, also reaches the other side.
            start = final.index("Hello")
            assert peer.command(f"delete {len(final[:start])} 6") == "OK"  # "Hello " in scalars
            assert await wait_until(lambda: "Hello from" not in str(text) and str(text) == peer.text())
            if str(text).startswith("[kit done] "):
                del text[0:len("[kit done] ")]
            else:
                text += " [py tail]"
            assert await wait_until(lambda: str(text) == peer.text())
            assert "[kit done] " not in str(text) or "[py tail]" in str(text)
            final = str(text)
    words = final.split(" ")
    for word in peer_words + py_words:
        assert word.strip() in words, (word, final)
    assert "Ünïcödé ✓ 😀" in final and "from ParleyKit." in final and "[py done]" in final
    return final
