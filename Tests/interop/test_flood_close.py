"""A client without an account floods a WebSocket and never reads the answers: the server
closes that connection when its outbound queue overflows and keeps serving everyone else.

These floods used to abort the whole process: the overflow closed the socket in the middle
of one read's frames, the close handler freed the Pusher transport, and the frames after it
were still delivered to the freed object. Frames are built by wsproto (a peer nobody here
wrote); the client sends them all in as few writes as the kernel allows and reads nothing."""
import json
import socket
import threading

import pytest
import wsproto
from wsproto.connection import ConnectionType
from wsproto.events import AcceptConnection, Ping, Request, TextMessage

from test_pusher_support import APP, RawClient, server  # noqa: F401


def handshake(port):
    """Opens a WebSocket to the app's Pusher endpoint; returns the socket and the wsproto state."""
    s = socket.create_connection(("127.0.0.1", port))
    # A tiny receive window so the server's answers back up into its own queue quickly.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    ws = wsproto.WSConnection(ConnectionType.CLIENT)
    s.sendall(ws.send(Request(host="127.0.0.1", target=f"/app/{APP['key']}?protocol=7")))
    s.settimeout(10)
    while True:
        data = s.recv(65536)
        assert data, "server closed during the handshake"
        ws.receive_data(data)
        if any(isinstance(e, AcceptConnection) for e in ws.events()):
            return s, ws


def flood(port, frame_bytes, count):
    """Sends `count` copies of a frame without reading anything back, then hangs up."""
    s, _ = handshake(port)
    burst = frame_bytes * 2000
    try:
        for _ in range(count // 2000):
            s.sendall(burst)
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        s.close()


def assert_still_serving(srv):
    assert srv.alive(), "the server process died"
    client = RawClient(srv.ws_url())
    client.subscribe("after-flood")
    client.expect("pusher_internal:subscription_succeeded")
    srv.client().trigger("after-flood", "hello", {"ok": True})
    assert json.loads(client.expect("hello")["data"]) == {"ok": True}
    client.close()


def test_ping_flood_without_reading_pongs_is_closed_and_server_lives(server):
    _, ws = handshake(server.port)  # only for frame encoding: a fresh client-side state
    ping = ws.send(Ping(payload=b"p" * 125))
    flood(server.port, ping, 66_000)
    assert_still_serving(server)


def test_pusher_ping_flood_is_closed_and_server_lives(server):
    _, ws = handshake(server.port)
    frame = ws.send(TextMessage(data=json.dumps({"event": "pusher:ping", "data": {}})))
    flood(server.port, frame, 200_000)
    assert_still_serving(server)


def test_failed_subscribe_flood_is_closed_and_server_lives(server):
    _, ws = handshake(server.port)
    bad = {"event": "pusher:subscribe", "data": {"channel": "private-secret", "auth": "app-key:forged"}}
    frame = ws.send(TextMessage(data=json.dumps(bad)))
    flood(server.port, frame, 100_000)
    assert_still_serving(server)


def test_many_flooders_at_once_leave_the_server_serving(server):
    _, ws = handshake(server.port)
    ping = ws.send(Ping(payload=b"q" * 125))
    threads = [threading.Thread(target=flood, args=(server.port, ping, 40_000)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert_still_serving(server)
