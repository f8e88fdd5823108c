"""What the server tells its operator: `--log-format json` and `--log-level`, an access line
per HTTP request (method, route pattern, status, duration, bytes, app, user; never a token
or a body), and one line for each migration applied, webhook failure and quota refusal."""
import json
import socket
import subprocess
import time
import urllib.request

from websockets.sync.client import connect

from chat_support import APP_A, APP_B, ChatServer, basic, mint
from conftest import free_port
from log_tail import LogTail

SECRET_MARKER = "body-marker-that-must-not-be-logged"


def start_following(server, *args):
    """Starts `server` (a ChatServer) on a free port without waiting for a start line (with
    JSON lines or above info there is none to wait for), following its output from the
    first line; returns the LogTail once /healthz answers."""
    server.port = free_port()
    server.process = subprocess.Popen(
        [str(server.binary), "serve", "--config", str(server.work / "apps.json"), "--data-dir", str(server.work / "data"),
         "--port", str(server.port), *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tail = LogTail(server.process)
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=2) as answer:
                assert answer.status == 200
            return tail
        except OSError:
            assert server.process.poll() is None and time.monotonic() < deadline, "".join(tail.lines)
            time.sleep(0.1)


def stopped(server, tail):
    """Stops the server and returns everything it logged."""
    server.stop()
    time.sleep(0.2)
    return tail.lines


def configured(apps, extra_args=()):
    server = ChatServer(extra_args=list(extra_args))
    (server.work / "apps.json").write_text(json.dumps({"apps": apps}))
    return server


def test_json_lines_with_an_access_line_per_request_and_no_tokens_or_bodies():
    server = ChatServer()
    tail = start_following(server, "--log-format", "json")
    try:
        server.ok("POST", "/v1/users", auth=basic(APP_A), json_body={"id": "alice", "name": SECRET_MARKER})
        token = mint(APP_A, "alice")
        mark = tail.mark()
        assert server.request("GET", f"/v1/users/alice?note={SECRET_MARKER}", token=token).status == 200
        line = tail.wait_for('"route":"/v1/users/{user_id}"', after=mark)
        assert line is not None
        record = json.loads(line)
        assert record["component"] == "access" and record["msg"] == "request" and record["level"] == "info"
        assert record["method"] == "GET" and record["status"] == "200"
        assert record["app"] == APP_A["id"] and record["user"] == "alice"
        assert int(record["bytes_out"]) > 0 and float(record["duration_ms"]) >= 0
        created = json.loads(tail.wait_for('"route":"/v1/users"'))
        assert created["method"] == "POST" and created["status"] == "201" and created["app"] == APP_A["id"]
        assert int(created["bytes_in"]) > len(SECRET_MARKER) and "user" not in created
        assert server.request("GET", "/no/such/path").status == 404
        assert json.loads(tail.wait_for('"status":"404"'))["route"] == "-"
    finally:
        server.stop()
        time.sleep(0.2)
    text = "".join(tail.lines)
    assert token not in text and SECRET_MARKER not in text and APP_A["secret"] not in text
    for line in tail.lines:
        json.loads(line)  # every line is one JSON object


def test_migrations_are_logged_once_and_log_level_warning_hides_info():
    server = ChatServer()
    lines = stopped(server, start_following(server))
    migrations = [line for line in lines if 'msg="migration applied"' in line]
    assert migrations and "version=1 " in migrations[0] and "database=sqlite:" in migrations[0]
    # The same data directory again: nothing left to apply.
    lines = stopped(server, start_following(server))
    assert any("parley listening" in line for line in lines)
    assert not [line for line in lines if "migration applied" in line]
    # Above info, a healthy start and requests write nothing at all.
    quiet = ChatServer()
    tail = start_following(quiet, "--log-level", "warning")
    assert quiet.request("GET", "/healthz").status == 200
    assert stopped(quiet, tail) == []


def test_a_failing_webhook_and_a_quota_refusal_are_logged():
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead_port = closed.getsockname()[1]
    app = dict(APP_A, webhooks=[{"url": f"http://127.0.0.1:{dead_port}/hook"}], limits={"max_connections": 1})
    server = configured([app, APP_B], extra_args=["--no-access-log"]).start()
    tail = LogTail(server.process)
    first = connect(server.ws_url(APP_A))
    try:
        assert json.loads(first.recv(timeout=5))["event"] == "pusher:connection_established"
        first.send(json.dumps({"event": "pusher:subscribe", "data": {"channel": "news"}}))
        line = tail.wait_for("kind=webhook_failed")
        assert line is not None and "level=warning" in line and f"endpoint=127.0.0.1:{dead_port}" in line
        with connect(server.ws_url(APP_A)) as second:
            refusal = json.loads(second.recv(timeout=5))
            assert refusal["data"]["code"] == 4004
        line = tail.wait_for("kind=connection_quota")
        assert line is not None and f"app={APP_A['id']}" in line and "max_connections=1" in line
        assert server.request("GET", "/healthz").status == 200
        assert not [line for line in tail.lines if "component=access" in line]
    finally:
        first.close()
        server.stop()
