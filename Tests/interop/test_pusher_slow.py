"""Must show 6: a subscriber that stops reading is closed with 4100 once over its bound,
server memory stays bounded, and the other subscribers keep receiving."""
import base64
import json
import os
import re
import socket
import time

from test_pusher_support import APP, MAX_OUTBOUND, RawClient, server  # noqa: F401


def stalled_subscriber(port, channel):
    """A WebSocket client that subscribes and then never reads again."""
    s = socket.create_connection(("127.0.0.1", port))
    # Small enough that the stall shows quickly, large enough to drain fast later (a tiny
    # window turns the final read into minutes of delayed ACKs).
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /app/{APP['key']}?protocol=7 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    payload = json.dumps({"event": "pusher:subscribe", "data": {"channel": channel}}).encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    s.sendall(bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big") + mask + masked
              if len(payload) >= 126 else bytes([0x81, 0x80 | len(payload)]) + mask + masked)
    return s


def read_all(s, timeout=10):
    s.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    return data


def test_stalled_subscriber_is_closed_4100_and_others_continue(server):
    backend = server.client()
    healthy = RawClient(server.ws_url())
    healthy.subscribe("firehose")
    healthy.expect("pusher_internal:subscription_succeeded")
    stalled = stalled_subscriber(server.port, "firehose")
    time.sleep(0.5)
    rss_before = server.rss_kb()
    payload = "x" * 9000
    # The kernel's send buffer autotunes up to tcp_wmem's maximum before our own queue
    # grows at all, so publish past that plus twice the bound.
    kernel_buffer = int(open("/proc/sys/net/ipv4/tcp_wmem").read().split()[2])
    batches = (kernel_buffer + 2 * MAX_OUTBOUND) // (10 * len(payload)) + 1
    total = batches * 10
    got = 0
    for b in range(batches):
        backend.trigger_batch([{"channel": "firehose", "name": "chunk", "data": {"i": b * 10 + k, "p": payload}}
                               for k in range(10)])
        # Keep the healthy client drained as we go.
        while True:
            try:
                healthy.expect("chunk", timeout=0.001 if b < batches - 1 else 5)
                got += 1
            except TimeoutError:
                break
    while got < total:
        healthy.expect("chunk", timeout=5)
        got += 1
    assert got == total
    data = read_all(stalled)
    assert b'"code":4100' in data
    assert re.search(rb"\x88[\x02-\x7d]\x10\x04", data)  # close frame with code 4100 (0x1004), any reason
    assert server.rss_kb() - rss_before < 64 * 1024  # bounded: well under the ~2.4 MB * subscribers published
    assert server.alive()
    healthy.close()
