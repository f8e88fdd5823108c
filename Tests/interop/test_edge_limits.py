"""What a stranger without an account can make `parley serve` hold: uploads refused from their
head before any body is buffered, slow bodies cut with 408, connections over a cap answered
503 with Retry-After, and CORS headers only for the origins an app lists."""
import json
import socket
import time

import pytest

from chat_support import APP_A, APP_B, ChatServer, basic, create_user, mint, unique

MIB = 1024 * 1024


def edge_server(http=None, extra_args=(), cors=None, dev=False):
    """A ChatServer whose config file carries an `"http"` section and per-app `cors_origins`."""
    server = ChatServer(extra_args=extra_args, dev=dev)
    apps = []
    for app in (APP_A, APP_B):
        entry = dict(app, client_events=True, user_authentication=True)
        if cors and app["id"] in cors:
            entry["cors_origins"] = cors[app["id"]]
        apps.append(entry)
    config = {"apps": apps}
    if http:
        config["http"] = http
    (server.work / "apps.json").write_text(json.dumps(config))
    return server.start()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def read_head(sock, timeout=10):
    """Reads one response head (and whatever body came with it) from a raw socket."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    status = int(lines[0].split()[1]) if lines and lines[0].startswith("HTTP/") else None
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest


def upload_head(port, room, length, token=None):
    lines = [f"POST /v1/rooms/{room}/attachments HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: image/png",
             f"Content-Length: {length}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_unauthenticated_uploads_are_refused_from_the_head_and_memory_stays_bounded():
    server = edge_server()
    try:
        before = rss_kib(server.process.pid)
        sockets = []
        for i in range(30):
            sock = socket.create_connection(("127.0.0.1", server.port))
            token = mint(APP_A, "mallory", secret="not-the-secret") if i % 2 else None
            # A 10 MiB upload announced; only the head and the first 64 KiB are sent, the
            # rest held back.
            sock.sendall(upload_head(server.port, "r1", 10 * MIB, token) + b"\x89PNG" + b"\0" * (64 * 1024 - 4))
            sockets.append(sock)
        for sock in sockets:
            # The answer comes while the body is still held back.
            status, headers, body = read_head(sock)
            assert status == 401, (status, body)
            assert headers.get("connection") == "close"
            assert json.loads(body)["error"]["code"] in ("authentication_required", "token_signature_invalid")
        after = rss_kib(server.process.pid)
        # Thirty 10 MiB bodies buffered would be 300 MiB; nothing of them is kept.
        assert after - before < 64 * 1024, f"RSS grew from {before} KiB to {after} KiB"
        for sock in sockets:
            sock.close()
        # The server is healthy afterwards.
        assert server.request("GET", "/healthz").status == 200
    finally:
        server.stop()


def test_an_authenticated_upload_is_read_and_a_bad_token_on_a_json_route_is_refused_early():
    server = edge_server()
    try:
        user = unique("ann")
        create_user(server, APP_A, user)
        token = mint(APP_A, user)
        room = server.ok("POST", "/v1/rooms", token=token, json_body={"kind": "private"})["id"]
        png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")
        png += bytes(64)
        answer = server.request("POST", f"/v1/rooms/{room}/attachments", token=token, body=png,
                                headers={"Content-Type": "image/png"})
        # The head passed; the body was read and judged by the handler (whatever it thinks of this PNG).
        assert answer.status != 401, answer
        refused = server.request("POST", f"/v1/rooms/{room}/messages", token=token + "x",
                                 json_body={"parts": [{"type": "text/plain", "content": "hi"}]})
        assert refused.status == 401 and refused.error_code == "token_signature_invalid"
    finally:
        server.stop()


def test_a_slow_authenticated_body_is_cut_with_408():
    server = edge_server(http={"head_timeout": 1, "min_body_rate": 1000, "body_timeout": 30})
    try:
        user = unique("sloth")
        create_user(server, APP_A, user)
        token = mint(APP_A, user)
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(upload_head(server.port, "r1", MIB, token) + b"\x89PNG")
        # A byte now and then keeps an idle timer happy, not the rate.
        status = None
        deadline = time.monotonic() + 20
        sock.settimeout(0.5)
        data = b""
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"\r\n\r\n" in data:
                    break
            except socket.timeout:
                try:
                    sock.sendall(b"\0")
                except OSError:
                    break
        head = data.split(b"\r\n\r\n")[0].decode("latin-1")
        assert head.startswith("HTTP/1.1 408"), data
        assert "connection: close" in head.lower()
        assert b"request_timeout" in data
        sock.close()
        assert server.request("GET", "/healthz").status == 200
    finally:
        server.stop()


def healthz_on(sock, port):
    sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return read_head(sock)


def test_connections_over_the_per_address_cap_get_503_with_retry_after():
    server = edge_server(http={"max_connections_per_ip": 3, "limit_loopback": True},
                         extra_args=["--metrics-token", "edge-metrics"])
    try:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
        for sock in held:
            assert healthz_on(sock, server.port)[0] == 200
        extra = socket.create_connection(("127.0.0.1", server.port))
        status, headers, body = healthz_on(extra, server.port)
        assert status == 503
        assert int(headers["retry-after"]) > 0
        assert headers.get("connection") == "close"
        assert json.loads(body)["error"]["code"] == "too_many_connections"
        extra.settimeout(5)
        assert extra.recv(1) == b""  # and closed
        extra.close()
        # Once one closes, a new connection is welcome again.
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:
            with socket.create_connection(("127.0.0.1", server.port)) as again:
                status = healthz_on(again, server.port)[0]
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == 200
        # Free the address's slots before reading the counters: a connection the client has
        # just closed may still hold its slot until the server has seen the close.
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 10
        while True:
            answer = server.request("GET", "/metrics", token="edge-metrics")
            if answer.status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert answer.status == 200
        assert 'parley_http_connections_refused_total{cap="address"}' in answer.body.decode()
    finally:
        server.stop()


def test_connections_over_the_global_cap_get_503():
    server = edge_server(extra_args=["--max-connections", "2"])
    try:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(2)]
        for sock in held:
            assert healthz_on(sock, server.port)[0] == 200
        with socket.create_connection(("127.0.0.1", server.port)) as extra:
            status, headers, body = healthz_on(extra, server.port)
        assert status == 503 and "retry-after" in headers
        assert json.loads(body)["error"]["code"] == "server_busy"
        for sock in held:
            sock.close()
    finally:
        server.stop()


ORIGIN_A = "https://chat-a.example"
ORIGIN_B = "https://chat-b.example"


def test_cors_preflight_and_responses_follow_each_apps_origins():
    server = edge_server(cors={APP_A["id"]: [ORIGIN_A], APP_B["id"]: [ORIGIN_B + "/"]})
    try:
        user = unique("cora")
        create_user(server, APP_A, user)
        token = mint(APP_A, user)
        preflight_headers = {"Origin": ORIGIN_A, "Access-Control-Request-Method": "POST",
                             "Access-Control-Request-Headers": "authorization, content-type"}
        for path in ("/v1/me", "/v1/channels/auth", "/v1/rooms/abc/messages"):
            answer = server.request("OPTIONS", path, headers=preflight_headers)
            assert answer.status == 204, (path, answer)
            assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN_A
            assert "authorization" in answer.headers["Access-Control-Allow-Headers"].lower()
            assert "content-type" in answer.headers["Access-Control-Allow-Headers"].lower()
            assert int(answer.headers["Access-Control-Max-Age"]) > 0
            assert "Origin" in answer.headers["Vary"]
        assert "POST" in server.request("OPTIONS", "/v1/channels/auth", headers=preflight_headers).headers["Access-Control-Allow-Methods"]
        # A preflight carries no credentials: any app's origin passes it.
        other = server.request("OPTIONS", "/v1/me", headers={**preflight_headers, "Origin": ORIGIN_B})
        assert other.status == 204 and other.headers["Access-Control-Allow-Origin"] == ORIGIN_B
        # A stranger's origin gets no CORS fields at all.
        stranger = server.request("OPTIONS", "/v1/me", headers={**preflight_headers, "Origin": "https://evil.example"})
        assert not [name for name in stranger.headers if name.lower().startswith("access-control-")]
        # Plain OPTIONS lists the methods.
        plain = server.request("OPTIONS", "/v1/rooms/abc/messages")
        assert plain.status == 204 and "POST" in plain.headers["Allow"] and "GET" in plain.headers["Allow"]

        me = server.request("GET", "/v1/me", token=token, headers={"Origin": ORIGIN_A})
        assert me.status == 200 and me.headers["Access-Control-Allow-Origin"] == ORIGIN_A
        # The real request is decided by its own app's list: app B's origin may not read app A's answers.
        cross = server.request("GET", "/v1/me", token=token, headers={"Origin": ORIGIN_B})
        assert cross.status == 200 and "Access-Control-Allow-Origin" not in cross.headers
        evil = server.request("GET", "/v1/me", token=token, headers={"Origin": "https://evil.example"})
        assert evil.status == 200 and "Access-Control-Allow-Origin" not in evil.headers
        # An answer refusing bad credentials is still readable by a listed origin (the page learns why).
        refused = server.request("GET", "/v1/me", token=token + "x", headers={"Origin": ORIGIN_A})
        assert refused.status == 401 and refused.headers["Access-Control-Allow-Origin"] == ORIGIN_A
        # No Origin, no CORS fields.
        assert "Access-Control-Allow-Origin" not in server.request("GET", "/v1/me", token=token).headers
    finally:
        server.stop()


def test_dev_mode_allows_loopback_origins_only():
    server = edge_server(dev=True)
    try:
        for origin in ("http://localhost:5173", "http://127.0.0.1:8080", "https://[::1]:9443"):
            answer = server.request("OPTIONS", "/v1/dev/token",
                                    headers={"Origin": origin, "Access-Control-Request-Method": "POST"})
            assert answer.status == 204 and answer.headers["Access-Control-Allow-Origin"] == origin
        remote = server.request("OPTIONS", "/v1/dev/token",
                                headers={"Origin": "https://example.com", "Access-Control-Request-Method": "POST"})
        assert "Access-Control-Allow-Origin" not in remote.headers
    finally:
        server.stop()


def test_bad_cors_origin_in_the_config_is_refused_at_start(tmp_path):
    server = ChatServer()
    config = {"apps": [dict(APP_A, cors_origins=["https://example.com/app"])]}
    (server.work / "apps.json").write_text(json.dumps(config))
    import subprocess
    out = subprocess.run([str(server.binary), "serve", "--port", "0", "--data-dir", str(tmp_path), "--config",
                          str(server.work / "apps.json")], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "cors_origins" in out.stderr
