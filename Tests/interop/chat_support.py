"""Shared helpers for the chat interop tests: a `parley serve` with two apps that can be killed
and restarted over the same data, a small REST client (http.client), user tokens minted here
(HS256 JWTs, as an app backend would), and a Pusher client that subscribes to chat channels
through Parley's own `/v1/channels/auth`."""
import base64
import contextlib
import hashlib
import hmac
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

from test_pusher_support import RawClient

ROOT = Path(__file__).resolve().parents[2]
BIN_DIR = Path(os.environ.get("PARLEY_BIN_DIR", ROOT / ".build" / "debug"))
if not BIN_DIR.is_absolute():
    BIN_DIR = ROOT / BIN_DIR

APP_A = {"id": "301", "key": "chat-a-key", "secret": "chat-a-secret"}
APP_B = {"id": "302", "key": "chat-b-key", "secret": "chat-b-secret"}
LISTENING = re.compile(r'msg="parley listening" address=http://([0-9.]+):(\d+)')


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(app, user, ttl=3600, now=None, secret=None, audience=None, header=None):
    """A user token: JWT HS256 over the app secret (or `secret`), sub = user, aud = app id."""
    now = int(time.time()) if now is None else now
    header = header or {"alg": "HS256", "typ": "JWT"}
    claims = {"sub": user, "aud": audience or app["id"], "iat": now, "exp": now + ttl}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    key = (secret or app["secret"]).encode()
    signature = hmac.new(key, signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def basic(app):
    return "Basic " + base64.b64encode(f"{app['key']}:{app['secret']}".encode()).decode()


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def json(self):
        return json.loads(self.body) if self.body else None

    @property
    def error_code(self):
        data = self.json
        return data["error"]["code"] if isinstance(data, dict) and "error" in data else None

    def __repr__(self):
        return f"<{self.status} {self.body[:300]!r}>"


_next_port = [None]


def serve_port():
    """The port for a new `parley serve`: 0 (the system picks a free one) unless
    PARLEY_TEST_PORTS ("first-last") names the range a run may use; then the next free one of it."""
    spec = os.environ.get("PARLEY_TEST_PORTS")
    if not spec:
        return 0
    first, last = (int(part) for part in spec.split("-"))
    start = _next_port[0] or first
    for offset in range(last - first + 1):
        port = first + (start - first + offset) % (last - first + 1)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _next_port[0] = port + 1 if port < last else first
        return port
    raise RuntimeError(f"no free port in PARLEY_TEST_PORTS={spec}")


class ChatServer:
    """`parley serve --config` with APP_A and APP_B over one data directory (and optionally a
    PostgreSQL database); start, kill and restart keep the data."""

    def __init__(self, database=None, extra_args=(), dev=False, env=None, port=0):
        binary = BIN_DIR / "parley"
        if not binary.exists():
            pytest.skip(f"{binary} not built")
        self.binary = binary
        self.work = Path(tempfile.mkdtemp(prefix="parley-chat-"))
        self.database = database
        self.extra_args = list(extra_args)
        self.dev = dev
        self.env = env
        config = {"apps": [dict(app, client_events=True, user_authentication=True) for app in (APP_A, APP_B)]}
        (self.work / "apps.json").write_text(json.dumps(config))
        self.process = None
        self.listen_port = port or serve_port()
        self.port = None

    def start(self):
        args = [str(self.binary), "serve", "--port", str(self.listen_port), "--data-dir", str(self.work / "data")]
        args += ["--dev"] if self.dev else ["--config", str(self.work / "apps.json")]
        if self.database:
            args += ["--database", self.database]
        self.process = subprocess.Popen(args + self.extra_args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env=None if self.env is None else {**os.environ, **self.env})
        seen = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if not readable:
                if self.process.poll() is not None:
                    break
                continue
            line = self.process.stdout.readline()
            if not line:
                break
            seen.append(line)
            match = LISTENING.search(line)
            if match:
                self.port = int(match.group(2))
                return self
        self.process.kill()
        pytest.fail("parley serve did not start:\n" + "".join(seen) + (self.process.stdout.read() or ""))

    def kill(self):
        """SIGKILL: no shutdown work at all, as a crash."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # REST

    def request(self, method, path, token=None, body=None, json_body=None, headers=None, auth=None, timeout=30):
        """One request on a fresh connection; returns a Response."""
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = "Bearer " + token
        if auth is not None:
            all_headers["Authorization"] = auth
        if json_body is not None:
            body = json.dumps(json_body).encode()
            all_headers.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            return Response(response.status, dict(response.getheaders()), response.read())
        finally:
            connection.close()

    def ok(self, method, path, expect=(200, 201, 204), **kwargs):
        response = self.request(method, path, **kwargs)
        assert response.status in expect, f"{method} {path}: {response}"
        return response.json

    # Realtime

    def ws_url(self, app=APP_A):
        return f"ws://127.0.0.1:{self.port}/app/{app['key']}?protocol=7&client=pytest&version=1.0"

    def realtime(self, token, app=APP_A, sign_in=False):
        """A Pusher connection for the token's user; signed in (presence) when asked."""
        client = ChatRealtime(self, token, app)
        if sign_in:
            client.sign_in()
        return client


class ChatRealtime(RawClient):
    """A Pusher WebSocket whose subscriptions to chat channels are signed by Parley's
    `/v1/channels/auth` with the user's token, as any Pusher client's auth endpoint would."""

    def __init__(self, server, token, app):
        super().__init__(server.ws_url(app))
        self.server = server
        self.token = token

    def channel_auth(self, channel):
        form = f"socket_id={quote(self.socket_id)}&channel_name={quote(channel)}".encode()
        return self.server.request("POST", "/v1/channels/auth", token=self.token, body=form,
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})

    def join(self, channel):
        """Subscribes with Parley's signature; returns once the subscription succeeded."""
        auth = self.channel_auth(channel)
        assert auth.status == 200, f"channel auth for {channel}: {auth}"
        self.subscribe(channel, auth.json)
        self.expect("pusher_internal:subscription_succeeded", channel, timeout=10)
        return self

    def sign_in(self):
        form = f"socket_id={quote(self.socket_id)}".encode()
        auth = self.server.request("POST", "/v1/channels/user-auth", token=self.token, body=form,
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert auth.status == 200, f"user auth: {auth}"
        self.send("pusher:signin", auth.json)
        self.expect("pusher:signin_success", timeout=10)
        return self

    def event(self, name, channel=None, timeout=5.0, where=None):
        """The data (parsed) of the next `name` event matching `where`; others stay queued."""
        deadline = time.time() + timeout
        passed = []
        try:
            while True:
                remaining = deadline - time.time()
                if remaining <= 0:
                    raise TimeoutError(f"no {name} matching within {timeout}s")
                message = self.expect(name, channel, timeout=remaining)
                data = message["data"]
                data = json.loads(data) if isinstance(data, str) else data
                if where is None or where(data):
                    return data
                passed.append(message)
        finally:
            self.backlog.extend(passed)


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def create_user(server, app, user_id, name=None):
    return server.ok("POST", "/v1/users", auth=basic(app), json_body={"id": user_id, "name": name or user_id})


def postgres_schema_url():
    """A fresh schema in the test PostgreSQL instance (PARLEY_TEST_POSTGRES_URL), as a URL
    whose search_path selects it; None when no instance is configured."""
    url = os.environ.get("PARLEY_TEST_POSTGRES_URL")
    if not url:
        return None
    schema = "crash_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qc", f"CREATE SCHEMA {schema}"], check=True)
    separator = "&" if "?" in url else "?"
    return url + separator + f"options=-c%20search_path%3D{schema}", schema


def drop_postgres_schema(url, schema):
    """Drops a schema made by `postgres_schema_url` (best effort: the instance may be gone)."""
    base = url.split("&options=")[0].split("?options=")[0]
    subprocess.run(["psql", base, "-qc", f"DROP SCHEMA {schema} CASCADE"], check=False, capture_output=True)


def start_chat_server(database=None):
    """A started `ChatServer` on SQLite, or on `database` (a PostgreSQL URL)."""
    return ChatServer(database=database).start()


@contextlib.contextmanager
def engine_database(engine):
    """The `--database` of a server on `engine`: None on "sqlite" (its data directory), on
    "postgres" a fresh schema of PARLEY_TEST_POSTGRES_URL (the test is skipped when unset),
    dropped when the block ends."""
    if engine == "sqlite":
        yield None
        return
    scoped = postgres_schema_url()
    if scoped is None:
        pytest.skip("PARLEY_TEST_POSTGRES_URL is not set (scripts/test.sh starts a private PostgreSQL instance)")
    url, schema = scoped
    try:
        yield url
    finally:
        drop_postgres_schema(url, schema)


def two_engine_chat_fixture(start=start_chat_server):
    """A module-scoped `chat` fixture run once per engine: `start(database=None)` on SQLite, then
    `start(database=URL)` on a fresh schema of PARLEY_TEST_POSTGRES_URL (skipped when unset),
    dropped afterwards. A test module assigns it: `chat = two_engine_chat_fixture()`."""

    @pytest.fixture(scope="module", params=["sqlite", "postgres"])
    def chat(request):
        with engine_database(request.param) as database:
            server = start(database=database)
            yield server
            server.stop()

    return chat
