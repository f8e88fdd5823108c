"""A y-websocket message the server refuses: the connection closes with 1007 and a reason that
says why, the server logs one line naming the document, the client and the reason, `/metrics`
counts it, and a client that reconnects and sends the same message again is held back
before its close (y-websocket reconnects at once, which would otherwise be a tight loop)."""
import asyncio
import re
import threading
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from chat_support import ChatServer
from test_docs_ywebsocket import doc_url, setup_room

METRICS_TOKEN = "docs-metrics-token"
# One struct of client 5 in root "meta" with content ref 11, which Yjs does not define.
UNKNOWN_CONTENT = bytes([1, 1, 5, 0, 0x0B, 1, 4]) + b"meta" + bytes([0])
REFUSED_MESSAGE = bytes([0, 2, len(UNKNOWN_CONTENT)]) + UNKNOWN_CONTENT


@pytest.fixture(scope="module")
def server():
    s = ChatServer(extra_args=["--metrics-token", METRICS_TOKEN]).start()
    s.output = []
    reader = threading.Thread(target=lambda: s.output.extend(iter(s.process.stdout.readline, "")), daemon=True)
    reader.start()
    yield s
    s.stop()


def log_lines(server, pattern, count, timeout=10.0):
    """Waits until the server has written `count` new lines matching `pattern`; returns them
    and marks them as read."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [line for line in server.output if re.search(pattern, line)]
        if len(found) >= count:
            break
        time.sleep(0.05)
    for line in found:
        server.output.remove(line)
    return found


async def send_refused(url):
    async with connect(url) as ws:
        await ws.send(REFUSED_MESSAGE)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await ws.recv()
        return closed.value.rcvd.code, closed.value.rcvd.reason


def metric(server, name):
    body = server.request("GET", "/metrics", headers={"Authorization": "Bearer " + METRICS_TOKEN}).body.decode()
    match = re.search("^" + re.escape(name) + r" (\d+)$", body, re.MULTILINE)
    assert match, body
    return int(match.group(1))


def test_refused_update_closes_with_a_reason_is_logged_counted_and_slowed_down(server):
    room, alice, _, _ = setup_room(server)
    url = doc_url(server, room, "bad", alice)
    refused_before = metric(server, 'parley_docs_refused_messages_total{code="invalid_update"}')
    delayed_before = metric(server, "parley_docs_refusals_delayed_total")

    code, reason = asyncio.run(send_refused(url))
    assert code == 1007
    assert reason.startswith("invalid_update: unknown_content"), reason
    [line] = log_lines(server, r'msg="document message refused"', 1)
    assert f"user={alice}" in line and "code=invalid_update" in line and "document=" in line
    assert "connection=" in line and "unknown_content" in line
    assert re.search(r'close_delay_ms="?0\b', line), line

    # The same message again, as a reconnecting client sends it: the close is held back,
    # longer each time.
    for _ in range(2):
        assert asyncio.run(send_refused(url))[0] == 1007
    delays = [int(re.search(r'close_delay_ms="?(\d+)', line).group(1))
              for line in log_lines(server, r'msg="document message refused"', 2)]
    assert delays[0] > 0 and delays[1] > delays[0], delays

    assert metric(server, 'parley_docs_refused_messages_total{code="invalid_update"}') == refused_before + 3
    assert metric(server, "parley_docs_refusals_delayed_total") == delayed_before + 2
    # The server stays healthy and the document usable.
    assert server.request("GET", "/healthz").status == 200
