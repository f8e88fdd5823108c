"""X-Forwarded-For is believed only from trusted proxies (`--trusted-proxy CIDR`,
`PARLEY_TRUSTED_PROXIES`, `http.trusted_proxies`). From a trusted peer the client is the
right-most address of the header that is not itself trusted, and that client is what the
per-address connection cap counts and the access log names; the proxy itself is not capped.
From any other peer the header is ignored, however it is spoofed."""
import json
import socket
import subprocess
import time

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from conftest import binary, free_port
from log_tail import LogTail
from test_edge_limits import edge_server, read_head


def healthz(sock, port, forwarded_for):
    sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Forwarded-For: {forwarded_for}\r\n\r\n".encode())
    return read_head(sock)


def held_connection(server, forwarded_for):
    """A keep-alive connection that made one request for `forwarded_for`; its status and the socket."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    status, _, body = healthz(sock, server.port, forwarded_for)
    return status, body, sock


def access_line(tail, mark, needle="route=/healthz"):
    line = tail.wait_for(needle, after=mark)
    assert line is not None and "component=access" in line
    return line


def test_the_header_is_ignored_from_an_untrusted_peer():
    server = edge_server(http={"max_connections_per_ip": 2, "limit_loopback": True})
    tail = LogTail(server.process)
    held = []
    try:
        mark = tail.mark()
        for spoofed in ("198.51.100.1", "198.51.100.2"):
            status, _, sock = held_connection(server, spoofed)
            held.append(sock)
            assert status == 200
        line = access_line(tail, mark)
        assert "client=127.0.0.1:" in line and "198.51.100" not in line
        # Every connection counts as 127.0.0.1, whatever it claims.
        status, body, sock = held_connection(server, "198.51.100.3")
        held.append(sock)
        assert status == 503 and json.loads(body)["error"]["code"] == "too_many_connections"
    finally:
        for sock in held:
            sock.close()
        server.stop()


@pytest.mark.parametrize("source", ["flag", "config"])
def test_a_trusted_proxy_forwards_the_client_the_cap_and_the_log_use(source):
    http = {"max_connections_per_ip": 2, "limit_loopback": True}
    if source == "config":
        http["trusted_proxies"] = ["10.0.0.0/8", "127.0.0.1/32"]
        server = edge_server(http=http)
    else:
        server = edge_server(http=http, extra_args=["--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "10.0.0.0/8"])
    tail = LogTail(server.process)
    held = []
    try:
        mark = tail.mark()
        for _ in range(2):
            status, _, sock = held_connection(server, "198.51.100.7")
            held.append(sock)
            assert status == 200
        line = access_line(tail, mark)
        assert "client=198.51.100.7 " in line or line.rstrip().endswith("client=198.51.100.7")

        # The same client again is over its cap, also behind a trusted hop or with a spoofed
        # entry on the left (only the right-most untrusted address counts).
        for forwarded in ("198.51.100.7", "10.1.2.3, 198.51.100.7, 10.9.9.9", "203.0.113.50, 198.51.100.7"):
            status, body, sock = held_connection(server, forwarded)
            held.append(sock)
            assert status == 503 and json.loads(body)["error"]["code"] == "too_many_connections", forwarded

        # Another client through the same proxy is welcome: the proxy itself (127.0.0.1, with
        # loopback capped at 2) is not what is counted.
        status, _, sock = held_connection(server, "198.51.100.8")
        held.append(sock)
        assert status == 200
        url = f"ws://127.0.0.1:{server.port}/app/chat-a-key?protocol=7"
        with connect(url, additional_headers={"X-Forwarded-For": "198.51.100.8"}, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["event"] == "pusher:connection_established"
            with pytest.raises(InvalidStatus) as refused:
                connect(url, additional_headers={"X-Forwarded-For": "198.51.100.8"}, open_timeout=10)
            assert refused.value.response.status_code == 503

        # A client's slot frees when its connection closes.
        held[0].close()
        deadline = time.monotonic() + 10
        while True:
            status, _, sock = held_connection(server, "198.51.100.7")
            held.append(sock)
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == 200
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_a_bad_range_is_refused_at_start(tmp_path):
    out = subprocess.run([str(binary("parley")), "serve", "--dev", "--port", str(free_port()), "--data-dir", str(tmp_path / "d"),
                          "--trusted-proxy", "10.0.0.0/33"], capture_output=True, text=True, timeout=20)
    assert out.returncode == 2
    assert "--trusted-proxy must be an address or CIDR range" in out.stderr
