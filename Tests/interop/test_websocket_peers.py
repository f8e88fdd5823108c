"""WebSocket interop: Python `websockets` and `wsproto` clients against our HTTPServer
(ParleyTestPeer serve), and our WebSocketClient (ParleyTestPeer client) against a Python
`websockets` server."""

import contextlib
import hashlib
import json
import os
import signal
import socket
import struct
import subprocess
import threading

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.sync.server import serve
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Ping,
    Pong,
    Request,
    TextMessage,
)
from wsproto.extensions import PerMessageDeflate

from conftest import binary, free_port

CLOSE_CODES = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1011]
MIB = 1 << 20


def ws_connect(peer, compressed, **kwargs):
    return connect(
        f"{peer.ws_url}/echo",
        compression="deflate" if compressed else None,
        proxy=None,
        ping_interval=None,
        open_timeout=10,
        **kwargs,
    )


def negotiated_deflate(ws):
    return any(ext.name == "permessage-deflate" for ext in ws.protocol.extensions)


# --- websockets client -------------------------------------------------------------------


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "deflate"])
def test_websockets_text_binary_fragmented(test_peer, compressed):
    peer = test_peer()
    with ws_connect(peer, compressed) as ws:
        assert negotiated_deflate(ws) == compressed
        ws.send("héllo wörld ✓")
        assert ws.recv(timeout=10) == "héllo wörld ✓"
        payload = bytes(range(256)) * 4
        ws.send(payload)
        assert ws.recv(timeout=10) == payload
        # An iterable sends one message as several frames (first + continuations).
        ws.send(["frag-1 ", "frag-2 ", "✓ frag-3"])
        assert ws.recv(timeout=10) == "frag-1 frag-2 ✓ frag-3"
        ws.send([b"\x00\x01", b"\x02" * 1000, b"\x03"])
        assert ws.recv(timeout=10) == b"\x00\x01" + b"\x02" * 1000 + b"\x03"
        ws.send("")
        assert ws.recv(timeout=10) == ""


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "deflate"])
def test_websockets_one_mebibyte_messages(test_peer, compressed):
    peer = test_peer("--max-message", str(2 * MIB))
    with ws_connect(peer, compressed, max_size=4 * MIB) as ws:
        big = os.urandom(MIB)
        ws.send(big)
        assert ws.recv(timeout=30) == big
        text = ("parley " * (MIB // 7 + 1))[:MIB]
        ws.send(text)
        assert ws.recv(timeout=30) == text
        # Fragmented 1 MiB binary message.
        ws.send([big[i : i + 65536] for i in range(0, MIB, 65536)])
        assert ws.recv(timeout=30) == big


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "deflate"])
def test_websockets_over_limit_closes_1009(test_peer, compressed):
    peer = test_peer()  # default limit 64 KiB
    with ws_connect(peer, compressed) as ws:
        ws.send(os.urandom(64 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "deflate"])
def test_websockets_ping_pong(test_peer, compressed):
    peer = test_peer()
    with ws_connect(peer, compressed) as ws:
        pong = ws.ping(b"are you there")
        assert pong.wait(timeout=10)
        # Still usable after control frames.
        ws.send("after ping")
        assert ws.recv(timeout=10) == "after ping"


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "deflate"])
@pytest.mark.parametrize("code", CLOSE_CODES)
def test_websockets_server_close_codes(test_peer, code, compressed):
    peer = test_peer()
    with ws_connect(peer, compressed) as ws:
        ws.send(f"close:{code}:reason {code}")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == code
        assert closed.value.rcvd.reason == f"reason {code}"


@pytest.mark.parametrize("code", CLOSE_CODES)
def test_websockets_client_close_codes_are_echoed(test_peer, code):
    peer = test_peer()
    with ws_connect(peer, False) as ws:
        ws.send("hi")
        assert ws.recv(timeout=10) == "hi"
        ws.close(code=code, reason="client says bye")
        # The server answers a client close with the same code (RFC 6455 §5.5.1).
        assert ws.protocol.close_rcvd is not None
        assert ws.protocol.close_rcvd.code == code


def test_graceful_shutdown_closes_websockets_with_1001(test_peer):
    peer = test_peer()
    stack = contextlib.ExitStack()
    clients = [stack.enter_context(ws_connect(peer, i % 2 == 0)) for i in range(3)]
    for ws in clients:
        ws.send("ready")
        assert ws.recv(timeout=10) == "ready"
    peer.process.send_signal(signal.SIGTERM)
    for ws in clients:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    assert peer.process.wait(timeout=10) == 0
    assert "shutdown complete" in peer.output()
    stack.close()


# --- wsproto client ----------------------------------------------------------------------


class WsprotoClient:
    """A wsproto client over a blocking socket, collecting complete messages."""

    def __init__(self, host, port, deflate=False, path="/echo"):
        self.sock = socket.create_connection((host, port), timeout=10)
        self.conn = WSConnection(ConnectionType.CLIENT)
        self.pending = []
        extensions = [PerMessageDeflate()] if deflate else []
        self.sock.sendall(self.conn.send(Request(host=f"{host}:{port}", target=path, extensions=extensions)))
        event = self.next_event()
        assert isinstance(event, AcceptConnection), event
        self.accepted = event

    def next_event(self):
        while not self.pending:
            data = self.sock.recv(65536)
            self.conn.receive_data(data or None)
            self.pending.extend(self.conn.events())
            if not data and not self.pending:
                raise ConnectionError("peer closed")
        return self.pending.pop(0)

    def send(self, event):
        self.sock.sendall(self.conn.send(event))

    def message(self):
        """The next complete message (str or bytes), answering nothing else."""
        parts = []
        while True:
            event = self.next_event()
            if isinstance(event, (TextMessage, BytesMessage)):
                parts.append(event.data)
                if event.message_finished:
                    return "".join(parts) if isinstance(event, TextMessage) else b"".join(parts)
            elif isinstance(event, CloseConnection):
                raise AssertionError(f"closed {event.code} {event.reason}")

    def expect_close(self):
        while True:
            event = self.next_event()
            if isinstance(event, CloseConnection):
                try:
                    self.send(event.response())
                except Exception:
                    pass
                return event

    def close(self):
        self.sock.close()


@pytest.mark.parametrize("deflate", [False, True], ids=["plain", "deflate"])
def test_wsproto_messages_fragments_ping(test_peer, deflate):
    peer = test_peer("--max-message", str(2 * MIB))
    client = WsprotoClient(peer.host, peer.port, deflate=deflate)
    negotiated = [e for e in client.accepted.extensions if isinstance(e, PerMessageDeflate)]
    assert bool(negotiated) == deflate
    client.send(TextMessage(data="wsproto ✓"))
    assert client.message() == "wsproto ✓"
    client.send(BytesMessage(data=b"\xff\x00" * 100))
    assert client.message() == b"\xff\x00" * 100
    # Fragmented text, split inside a multi-byte character.
    encoded = "split ✓ here".encode()
    cut = encoded.index("✓".encode()) + 1
    client.send(TextMessage(data="split ", message_finished=False))
    client.send(TextMessage(data="✓ here", message_finished=True))
    assert client.message() == "split ✓ here"
    assert cut > 0
    big = os.urandom(MIB)
    client.send(BytesMessage(data=big[: MIB // 2], message_finished=False))
    client.send(Ping(payload=b"mid-message ping"))
    client.send(BytesMessage(data=big[MIB // 2 :], message_finished=True))
    events = []
    while len([e for e in events if isinstance(e, BytesMessage) and e.message_finished]) < 1:
        events.append(client.next_event())
    assert any(isinstance(e, Pong) and e.payload == b"mid-message ping" for e in events)
    assert b"".join(e.data for e in events if isinstance(e, BytesMessage)) == big
    client.send(CloseConnection(code=1000, reason="bye"))
    assert client.expect_close().code == 1000
    client.close()


@pytest.mark.parametrize("code", CLOSE_CODES)
def test_wsproto_server_close_codes(test_peer, code):
    peer = test_peer()
    client = WsprotoClient(peer.host, peer.port, deflate=code % 2 == 1)
    client.send(TextMessage(data=f"close:{code}:wsproto"))
    event = client.expect_close()
    assert (event.code, event.reason) == (code, "wsproto")
    client.close()


# --- raw frames: protocol violations the server must answer ---------------------------------


def raw_frame(opcode, payload, fin=True, mask=True, rsv1=False):
    head = bytes([(0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode])
    length = len(payload)
    mask_bit = 0x80 if mask else 0
    if length < 126:
        head += bytes([mask_bit | length])
    elif length < 65536:
        head += bytes([mask_bit | 126]) + struct.pack("!H", length)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", length)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def close_code_after(peer, raw):
    client = WsprotoClient(peer.host, peer.port)
    client.sock.sendall(raw)
    data = b""
    while True:
        chunk = client.sock.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) >= 4 and data[0] == 0x88:
            break
    client.close()
    assert data[:1] == b"\x88", data[:16]
    return struct.unpack("!H", data[2:4])[0]


def test_unmasked_client_frame_closes_1002(test_peer):
    assert close_code_after(test_peer(), raw_frame(0x1, b"no mask", mask=False)) == 1002


def test_invalid_utf8_closes_1007(test_peer):
    assert close_code_after(test_peer(), raw_frame(0x1, b"bad \xff\xfe utf8")) == 1007


def test_utf8_split_across_fragments_is_accepted_then_invalid_rejected(test_peer):
    peer = test_peer()
    client = WsprotoClient(peer.host, peer.port)
    check = "✓".encode()
    client.sock.sendall(raw_frame(0x1, b"ok " + check[:1], fin=False) + raw_frame(0x0, check[1:]))
    assert client.message() == "ok ✓"
    client.close()
    code = close_code_after(peer, raw_frame(0x1, b"x" + check[:1], fin=False) + raw_frame(0x0, b"\x41"))
    assert code == 1007


def test_reserved_opcode_and_oversized_control_close_1002(test_peer):
    peer = test_peer()
    assert close_code_after(peer, raw_frame(0x3, b"reserved")) == 1002
    assert close_code_after(peer, raw_frame(0x9, b"p" * 126)) == 1002


def test_bad_frames_do_not_disturb_other_clients(test_peer):
    peer = test_peer()
    with ws_connect(peer, False) as healthy:
        for _ in range(5):
            close_code_after(peer, raw_frame(0x1, b"x", mask=False))
        healthy.send("still fine")
        assert healthy.recv(timeout=10) == "still fine"


# --- our client against a Python server ----------------------------------------------------


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "deflate"])
def test_our_client_against_websockets_server(compressed):
    received = []

    def echo(ws):
        try:
            for message in ws:
                received.append(message)
                ws.send(message)
        except ConnectionClosed:
            pass
        received.append(("closed", ws.close_code, ws.close_reason))

    port = free_port()
    server = serve(echo, "127.0.0.1", port, compression="deflate" if compressed else None,
                   max_size=4 * MIB, ping_interval=None)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        result = subprocess.run(
            [str(binary("ParleyTestPeer")), "client", "--url", f"ws://127.0.0.1:{port}/",
             "--deflate", "on" if compressed else "off"],
            capture_output=True, text=True, timeout=60,
        )
    finally:
        server.shutdown()
        thread.join(timeout=10)
    assert result.returncode == 0, result.stdout + result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    kinds = [e["event"] for e in events]
    assert kinds[0] == "open" and events[0]["compressed"] == compressed
    assert {"event": "text", "data": "hello from parley"} in events
    assert {"event": "text", "data": "frag-1 frag-2 frag-3"} in events
    big = bytes((i * 7) & 0xFF for i in range(MIB))
    binaries = [e for e in events if e["event"] == "binary"]
    assert {"event": "binary", "length": 256, "sha256": hashlib.sha256(bytes(range(256))).hexdigest()} in binaries
    assert {"event": "binary", "length": MIB, "sha256": hashlib.sha256(big).hexdigest()} in binaries
    assert {"event": "pong", "data": "are you there"} in events
    assert events[-1]["event"] == "close" and events[-1]["code"] == 1000
    # The server saw the same messages, in order, and a clean 1000 close.
    assert received[:2] == ["hello from parley", bytes(range(256))]
    assert received[3] == "frag-1 frag-2 frag-3"
    assert received[-1] == ("closed", 1000, "done")


def test_our_client_reports_a_refused_handshake():
    port = free_port()

    def refuse(connection, request):
        return connection.respond(403, "go away\n")

    server = serve(lambda ws: None, "127.0.0.1", port, process_request=refuse)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        result = subprocess.run(
            [str(binary("ParleyTestPeer")), "client", "--url", f"ws://127.0.0.1:{port}/"],
            capture_output=True, text=True, timeout=60,
        )
    finally:
        server.shutdown()
        thread.join(timeout=10)
    assert result.returncode == 1
    error = json.loads(result.stdout.splitlines()[0])
    assert error["event"] == "error" and error["code"] == "websocket.handshake.unexpected_status"
