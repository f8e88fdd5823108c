"""Shared fixtures for the Pusher interop tests: a `parley serve` with test apps, a webhook
receiver, and small raw-WebSocket helpers. Imported by the test_pusher_* modules."""
import http.server
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pusher
import pytest
from websockets.sync.client import connect as ws_connect

ROOT = Path(__file__).resolve().parents[2]
BIN_DIR = Path(os.environ.get("PARLEY_BIN_DIR", ROOT / ".build" / "debug"))
if not BIN_DIR.is_absolute():
    BIN_DIR = ROOT / BIN_DIR

APP = {"id": "123", "key": "app-key", "secret": "app-secret"}
NO_CLIENT_EVENTS = {"id": "124", "key": "quiet-key", "secret": "quiet-secret"}
DISABLED = {"id": "125", "key": "off-key", "secret": "off-secret"}
MAX_OUTBOUND = 256 * 1024


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebhookReceiver:
    """An HTTP endpoint recording webhook POSTs; answers `fail_next` requests with 500."""

    def __init__(self):
        self.requests = []
        self.fail_next = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    failing = receiver.fail_next > 0
                    if failing:
                        receiver.fail_next -= 1
                    receiver.requests.append({"headers": dict(self.headers), "body": body, "status": 500 if failing else 200})
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def events(self):
        with self.lock:
            accepted = [r for r in self.requests if r["status"] == 200]
        return [e for r in accepted for e in json.loads(r["body"])["events"]]

    def wait_for(self, predicate, timeout=10.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if predicate(self.events()):
                return True
            time.sleep(0.05)
        return False


class Server:
    def __init__(self, port, process, hooks):
        self.port = port
        self.process = process
        self.hooks = hooks

    def client(self, app=APP, secret=None):
        return pusher.Pusher(app_id=app["id"], key=app["key"], secret=secret or app["secret"],
                             host="127.0.0.1", port=self.port, ssl=False)

    def ws_url(self, key=APP["key"], protocol=7):
        return f"ws://127.0.0.1:{self.port}/app/{key}?protocol={protocol}&client=pytest&version=1.0"

    def rss_kb(self):
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def alive(self):
        return self.process.poll() is None


@pytest.fixture(scope="session")
def server():
    binary = BIN_DIR / "parley"
    if not binary.exists():
        pytest.skip(f"{binary} not built")
    hooks = WebhookReceiver()
    work = Path(tempfile.mkdtemp(prefix="parley-pusher-"))
    hook = {"url": f"http://127.0.0.1:{hooks.port}/hook"}
    config = {
        "activity_timeout": 120, "max_outbound_bytes": MAX_OUTBOUND,
        "webhook_batch_ms": 50, "webhook_leave_delay_ms": 1500,
        "apps": [
            dict(APP, client_events=True, user_authentication=True, webhooks=[hook],
                 limits={"client_events_per_second": 10}),
            dict(NO_CLIENT_EVENTS, client_events=False),
            dict(DISABLED, enabled=False),
        ],
    }
    (work / "apps.json").write_text(json.dumps(config))
    port = free_port()
    process = subprocess.Popen([str(binary), "serve", "--config", str(work / "apps.json"), "--port", str(port),
                                "--data-dir", str(work / "data")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    srv = Server(port, process, hooks)
    try:
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if process.poll() is not None:
                    output = process.stdout.read().decode(errors="replace")
                    pytest.fail("parley serve exited: " + output)
                time.sleep(0.1)
        srv.client().channels_info()
        yield srv
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        hooks.server.shutdown()


class RawClient:
    """A Pusher client over a plain WebSocket, for what pysher cannot do (presence with
    server-side auth, sign-in, raw frames)."""

    def __init__(self, url, ssl=None):
        self.ws = ws_connect(url, open_timeout=10, max_size=None, ssl=ssl)
        self.backlog = []
        established = self.expect("pusher:connection_established")
        self.socket_id = json.loads(established["data"])["socket_id"]

    def send(self, event, data=None, channel=None):
        message = {"event": event, "data": data if data is not None else {}}
        if channel is not None:
            message["channel"] = channel
        self.ws.send(json.dumps(message))

    def next(self, timeout=5.0):
        if self.backlog:
            return self.backlog.pop(0)
        return json.loads(self.ws.recv(timeout=timeout))

    def expect(self, event, channel=None, timeout=5.0):
        """The next message named `event` (others seen meanwhile are kept for later)."""
        deadline = time.time() + timeout
        skipped = []
        try:
            while True:
                for i, m in enumerate(self.backlog):
                    if m.get("event") == event and (channel is None or m.get("channel") == channel):
                        return self.backlog.pop(i)
                remaining = deadline - time.time()
                if remaining <= 0:
                    raise TimeoutError(f"no {event} within {timeout}s; saw {skipped}")
                m = json.loads(self.ws.recv(timeout=remaining))
                if m.get("event") == event and (channel is None or m.get("channel") == channel):
                    return m
                skipped.append(m)
        finally:
            self.backlog.extend(skipped)

    def nothing(self, event, wait=0.5):
        try:
            self.expect(event, timeout=wait)
            return False
        except TimeoutError:
            return True

    def subscribe(self, channel, auth=None):
        data = {"channel": channel}
        if auth:
            data.update(auth)
        self.send("pusher:subscribe", data)

    def close(self):
        self.ws.close()
