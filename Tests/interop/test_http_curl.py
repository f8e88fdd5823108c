"""HTTP/1.1 interop with curl (keep-alive, chunked upload, 100-continue) and raw sockets
(pipelining, limits and error answers) against our HTTPServer (ParleyTestPeer serve)."""

import hashlib
import json
import os
import shutil
import socket
import subprocess

import pytest

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")


def curl(*args, timeout=60):
    return subprocess.run(["curl", "--silent", "--show-error", "--noproxy", "*", *args],
                          capture_output=True, text=True, timeout=timeout)


def test_keep_alive_reuses_one_connection(test_peer):
    peer = test_peer()
    urls = [f"{peer.http_url}/healthz"] * 3 + [f"{peer.http_url}/stream?n=2"]
    result = curl("--verbose", *urls)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count('{"status":"ok"}') == 3
    assert "chunk 0\nchunk 1\n" in result.stdout
    assert result.stderr.count("Re-using existing connection") == 3
    assert result.stderr.count("Connected to") == 1


def test_chunked_upload(test_peer, tmp_path):
    peer = test_peer()
    data = os.urandom(3 * (1 << 20) + 12345)
    path = tmp_path / "upload.bin"
    path.write_bytes(data)
    result = curl("--verbose", "-H", "Transfer-Encoding: chunked", "--data-binary", f"@{path}",
                  f"{peer.http_url}/upload")
    assert result.returncode == 0, result.stderr
    assert "Transfer-Encoding: chunked" in result.stderr
    answer = json.loads(result.stdout)
    assert answer == {"length": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def test_expect_100_continue(test_peer, tmp_path):
    peer = test_peer()
    data = b"x" * 200_000
    path = tmp_path / "body.bin"
    path.write_bytes(data)
    result = curl("--verbose", "-H", "Expect: 100-continue", "--data-binary", f"@{path}",
                  f"{peer.http_url}/upload")
    assert result.returncode == 0, result.stderr
    assert "HTTP/1.1 100 Continue" in result.stderr
    assert json.loads(result.stdout)["length"] == len(data)


def test_body_over_route_limit_is_413_even_with_100_continue(test_peer, tmp_path):
    peer = test_peer()
    path = tmp_path / "big.bin"
    path.write_bytes(b"y" * (2 << 20))  # /echo-body allows 1 MiB
    result = curl("--verbose", "-H", "Expect: 100-continue", "--data-binary", f"@{path}",
                  "--write-out", "%{http_code}", f"{peer.http_url}/echo-body")
    assert result.stdout.endswith("413")
    assert "100 Continue" not in result.stderr
    assert '"code":"body_too_large"' in result.stdout


# --- raw sockets ------------------------------------------------------------------------------


def raw_exchange(peer, data, until_closed=True):
    with socket.create_connection((peer.host, peer.port), timeout=10) as sock:
        sock.sendall(data)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            chunks.append(chunk)
            if not until_closed:
                break
        return b"".join(chunks)


def test_pipelined_requests_answered_in_order(test_peer):
    peer = test_peer()
    # The first request is answered last by its handler; answers must still go out in order.
    requests = (
        b"GET /slow?ms=300&id=first HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /slow?ms=0&id=second HTTP/1.1\r\nHost: x\r\n\r\n"
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        b"POST /echo-body HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        b"GET /slow?ms=10&id=last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    answer = raw_exchange(peer, requests).decode()
    assert answer.count("HTTP/1.1 200 OK") == 5
    positions = [answer.index(marker) for marker in ["id=first", "id=second", '{"status":"ok"}', "hello", "id=last"]]
    assert positions == sorted(positions)
    assert "Connection: close" in answer.split("id=second")[1]


@pytest.mark.parametrize(
    "request_bytes, status, code",
    [
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "request_line_too_long"),
        (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Big: " + b"b" * 40000 + b"\r\n\r\n", 431, "headers_too_large"),
        (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: v\r\n" % i for i in range(120)) + b"\r\n", 431,
         "too_many_headers"),
        (b"POST /echo-body HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413, "body_too_large"),
        (b"GARBAGE\r\n\r\n", 400, None),
        (b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, None),
        (b"POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, None),
        (b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400, None),
        (b"POST /upload HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nContent-Length: 1\r\n\r\nx", 417,
         "expectation_failed"),
        (b"GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404, "not_found"),
        (b"DELETE /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405, "method_not_allowed"),
    ],
    ids=["414", "431-bytes", "431-count", "413", "400", "505", "501", "400-smuggling", "417", "404", "405"],
)
def test_limits_and_errors_answered_with_json(test_peer, request_bytes, status, code):
    peer = test_peer()
    answer = raw_exchange(peer, request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), answer[:200]
    assert b"Connection: close" in head
    error = json.loads(body)["error"]
    assert error["message"]
    if code:
        assert error["code"] == code
    # The server keeps serving others.
    health = raw_exchange(peer, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert health.startswith(b"HTTP/1.1 200 OK")


def test_http10_and_head(test_peer):
    peer = test_peer()
    answer = raw_exchange(peer, b"GET /healthz HTTP/1.0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 OK")
    assert answer.endswith(b'{"status":"ok"}')
    answer = raw_exchange(peer, b"HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"Content-Length: 15" in head and body == b""
    streamed = raw_exchange(peer, b"GET /stream?n=2 HTTP/1.0\r\n\r\n")
    assert b"Transfer-Encoding" not in streamed and streamed.endswith(b"chunk 0\nchunk 1\n")


def test_out_of_descriptors_sheds_connections_without_spinning(test_peer):
    """With RLIMIT_NOFILE tiny, connections beyond it are closed at once or wait in the backlog
    (the listener backs off instead of spinning), one log line per episode and listener, and
    service resumes when descriptors free up."""
    peer = test_peer(fd_limit=48)
    held, shed, waiting = [], 0, []
    for _ in range(60):
        sock = socket.create_connection((peer.host, peer.port), timeout=10)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(2)
        try:
            answer = sock.recv(4096)
        except ConnectionResetError:
            answer = b""  # closed with our request unread: a reset
        except socket.timeout:
            waiting.append(sock)  # still in the backlog while the listener backs off
            continue
        if answer.startswith(b"HTTP/1.1 200"):
            held.append(sock)
        else:
            assert answer == b""  # closed by the server right after accept
            shed += 1
            sock.close()
    assert held and (shed or waiting)
    # The held connections are still served (keep-alive).
    held[0].sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert held[0].recv(4096).startswith(b"HTTP/1.1 200")
    for sock in held:
        sock.close()
    # Connections left waiting are now served or closed, none hangs.
    for sock in waiting:
        sock.settimeout(10)
        try:
            answer = sock.recv(4096)
        except ConnectionResetError:
            answer = b""
        assert answer == b"" or answer.startswith(b"HTTP/1.1 200")
        sock.close()
    # Once descriptors are free again, new connections are served.
    for _ in range(50):
        answer = raw_exchange(peer, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        if answer.startswith(b"HTTP/1.1 200"):
            break
    assert answer.startswith(b"HTTP/1.1 200")
    assert peer.stop() == 0
    log = peer.output()
    # One line per episode and listener: a listener logs again only after it has logged
    # "accepting again" (a second episode), never once per refused connection.
    episodes, recoveries = log.count("closing new connections until descriptors free up"), log.count("accepting again")
    assert 1 <= episodes <= recoveries + 2  # two listeners (one per loop)
    assert recoveries >= 1
