"""nginx in front of a Parley cluster for the cluster proxy tests: the shipped
deploy/nginx/parley-cluster.conf rendered for this machine and run by Debian's nginx as a
private instance, and clients that know only nginx's address (pysher, a reconnecting raw
Pusher client) plus raw clients pinned to one node, and where each connection landed."""
import hashlib
import hmac
import json
import re
import shutil
import ssl
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pusher
import pysher
import pytest
from pusher.requests import RequestsBackend

from chat_support import APP_A, ROOT, basic
from cluster_support import METRICS_TOKEN, free_port
from test_pusher_support import RawClient

CLUSTER_SITE = ROOT / "deploy" / "nginx" / "parley-cluster.conf"
DEADLINE = 60


def render_site(ports, listen_port, certificate, key):
    """The shipped site with every upstream's servers replaced by `ports` (keeping the first
    server's parameters), nginx listening on `listen_port` and the test's certificate."""
    lines, out, upstreams = CLUSTER_SITE.read_text().splitlines(keepends=True), [], 0
    in_upstream, rendered = False, False
    for line in lines:
        if re.match(r"^upstream \w+ \{", line):
            in_upstream, rendered, upstreams = True, False, upstreams + 1
        elif in_upstream and line.startswith("}"):
            in_upstream = False
        server = re.match(r"^(\s*)server \S+(.*);$", line) if in_upstream else None
        if server is None:
            out.append(line)
        elif not rendered:
            out += [f"{server.group(1)}server 127.0.0.1:{port}{server.group(2)};\n" for port in ports]
            rendered = True
    site = "".join(out)
    assert upstreams == 2, "the example has an upstream for REST and Pusher and one for documents"
    for pattern, replacement in [(r"listen 443 ssl;", f"listen 127.0.0.1:{listen_port} ssl;"),
                                 (r"ssl_certificate\s+\S+;", f"ssl_certificate {certificate};"),
                                 (r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};")]:
        site, count = re.subn(pattern, replacement, site)
        assert count == 1, f"the example no longer has one {pattern!r}"
    return site


class Nginx:
    """Debian's nginx in the foreground as a private instance (its own prefix, pid file and
    logs, one worker, a port above 1024) running the rendered cluster site."""

    def __init__(self, work, ports):
        self.work = work
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not shutil.which(binary):
            pytest.skip("nginx is not installed (apt-get install nginx-light)")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], cwd=work, check=True, capture_output=True)
        self.certificate = work / "cert.pem"
        self.port = free_port()
        (work / "parley.conf").write_text(render_site(ports, self.port, self.certificate, work / "key.pem"))
        (work / "nginx.conf").write_text(f"""
            daemon off;
            pid {work}/nginx.pid;
            error_log {work}/error.log;
            events {{ worker_connections 1024; }}
            http {{
                access_log off;
                client_body_temp_path {work}/body;
                proxy_temp_path {work}/proxy;
                include {work}/parley.conf;
            }}
        """)
        command = [binary, "-e", str(work / "error.log"), "-p", str(work), "-c", str(work / "nginx.conf")]
        checked = subprocess.run(command + ["-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.context = ssl.create_default_context(cafile=str(self.certificate))
        deadline = time.monotonic() + 10
        while self.request("GET", "/readyz")[0] != 200:
            assert time.monotonic() < deadline, (work / "error.log").read_text()
            time.sleep(0.1)

    @property
    def url(self):
        return f"https://127.0.0.1:{self.port}"

    def request(self, method, path, body=None, headers=None, token=None):
        """(status, parsed JSON or None); a refused or dropped request is (0, None)."""
        all_headers = dict(headers or {})
        if token:
            all_headers["Authorization"] = "Bearer " + token
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            all_headers.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(self.url + path, data=body, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(req, context=self.context, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, None
        except OSError:
            return 0, None

    def ok(self, method, path, **kwargs):
        status, body = self.request(method, path, **kwargs)
        assert status in (200, 201, 204), f"{method} {path} through nginx: {status} {body}"
        return body

    def ws_url(self):
        return f"wss://127.0.0.1:{self.port}/app/{APP_A['key']}?protocol=7&client=pytest&version=1.0"

    def pusher_api(self):
        """The Pusher HTTP library, trusting the test's certificate (it pins its own CA file otherwise)."""
        certificate = str(self.certificate)

        class TrustingBackend(RequestsBackend):
            def __init__(self, client, **options):
                super().__init__(client, **options)
                self.options["verify"] = certificate

        return pusher.Pusher(app_id=APP_A["id"], key=APP_A["key"], secret=APP_A["secret"], host="127.0.0.1",
                             port=self.port, ssl=True, backend=TrustingBackend)

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def connections(node):
    """Pusher connections open on `node`, from its own /metrics."""
    body = node.request("GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).body.decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in body.splitlines()
               if line.startswith("parley_channels_connections{"))


def bus_messages_out(node):
    """Messages `node` has published on the cluster bus, from its own /metrics."""
    body = node.request("GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).body.decode()
    line = next(l for l in body.splitlines() if l.startswith("parley_bus_messages_out_total{"))
    return float(line.rsplit(" ", 1)[1])


def placed(nodes, connect):
    """Runs `connect` (which opens one Pusher connection through nginx and returns a client)
    and finds the node it landed on from the nodes' connection counts: (client, index)."""
    before = [connections(node) for node in nodes]
    client = connect()
    deadline = time.monotonic() + 10
    while True:
        grown = [i for i, node in enumerate(nodes) if connections(node) > before[i]]
        if grown:
            assert len(grown) == 1, f"one connection grew several nodes: {grown}"
            return client, grown[0]
        assert time.monotonic() < deadline, "the connection reached no node"
        time.sleep(0.05)


def sign(socket_id, channel, channel_data=None):
    text = f"{socket_id}:{channel}" + (f":{channel_data}" if channel_data else "")
    return f"{APP_A['key']}:" + hmac.new(APP_A["secret"].encode(), text.encode(), hashlib.sha256).hexdigest()


def join_presence(client, channel, user):
    data = json.dumps({"user_id": user, "user_info": {"name": user}})
    client.subscribe(channel, {"auth": sign(client.socket_id, channel, data), "channel_data": data})
    client.expect("pusher_internal:subscription_succeeded", channel, timeout=10)


class PysherClient:
    """pysher through nginx (wss, the test's CA), resubscribing by itself after a reconnect
    (auto_sub), recording the data of one event on one channel."""

    def __init__(self, nginx, channel, event, auth=None):
        self.items, self.established = [], 0
        self.lock = threading.Condition()
        self.client = pysher.Pusher(APP_A["key"], secure=True, custom_host="127.0.0.1", port=nginx.port,
                                    reconnect_interval=0.5, auto_sub=True)
        self.client.connection.socket_kwargs["sslopt"] = {"ca_certs": str(nginx.certificate)}
        subscribed = threading.Event()

        def connected(_):
            with self.lock:
                self.established += 1
                first = self.established == 1
                self.lock.notify_all()
            if first:
                bound = self.client.subscribe(channel, auth=auth(self.socket_id) if auth else None)
                bound.bind(event, self.add)
                bound.bind("pusher_internal:subscription_succeeded", lambda *_: subscribed.set())

        self.client.connection.bind("pusher:connection_established", connected)
        self.client.connect()
        assert subscribed.wait(10), "pysher did not subscribe through nginx"

    @property
    def socket_id(self):
        return self.client.connection.socket_id

    def add(self, data):
        with self.lock:
            self.items.append(json.loads(data) if isinstance(data, str) else data)
            self.lock.notify_all()

    def wait_for(self, predicate, what, timeout=DEADLINE):
        with self.lock:
            assert self.lock.wait_for(lambda: predicate(self), timeout), f"pysher: {what}; got {self.items}"

    def close(self):
        self.client.disconnect(timeout=5)


class ReconnectingRawClient:
    """A raw Pusher WebSocket client through nginx that behaves like a Pusher client library:
    when its socket drops it connects again (nginx picks a node) and subscribes again, with
    signatures for its new socket id. Records every channel event it receives."""

    def __init__(self, nginx, user, channels):
        self.nginx, self.user, self.channels = nginx, user, channels
        self.events, self.socket_ids = [], []
        self.lock = threading.Condition()
        self.stopped = False
        self.client = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.wait_for(lambda c: len(c.socket_ids) == 1, "connected and subscribed")

    def _connect(self):
        client = RawClient(self.nginx.ws_url(), ssl=self.nginx.context)
        for channel in self.channels:
            if channel.startswith("presence-"):
                join_presence(client, channel, self.user)
            else:
                client.subscribe(channel)
                client.expect("pusher_internal:subscription_succeeded", channel, timeout=10)
        return client

    def _run(self):
        while not self.stopped:
            try:
                self.client = self._connect()
            except Exception:  # nginx has no node for us yet, or the node died while we subscribed
                time.sleep(0.2)
                continue
            with self.lock:
                self.socket_ids.append(self.client.socket_id)
                self.lock.notify_all()
            try:
                while not self.stopped:
                    try:
                        message = self.client.next(timeout=0.5)
                    except TimeoutError:
                        continue
                    with self.lock:
                        self.events.append(message)
                        self.lock.notify_all()
            except Exception:  # the socket dropped: connect again
                time.sleep(0.2)

    def ticks(self):
        with self.lock:
            return [json.loads(m["data"])["n"] for m in self.events if m.get("event") == "tick"]

    def wait_for(self, predicate, what, timeout=DEADLINE):
        with self.lock:
            assert self.lock.wait_for(lambda: predicate(self), timeout), f"raw client {self.user}: {what}"

    def close(self):
        self.stopped = True
        self.thread.join(5)
        if self.client:
            self.client.close()


def node_ids_behind(nginx, count):
    """The node ids /healthz names through nginx over `count` requests."""
    return {nginx.ok("GET", "/healthz")["node"] for _ in range(count)}


def create_user(nginx, user):
    nginx.ok("POST", "/v1/users", body={"id": user, "name": user}, headers={"Authorization": basic(APP_A)})


def presence_events(watcher, event):
    """(channel, user) of every `event` the watcher has received so far."""
    with watcher.lock:
        return [(m["channel"], json.loads(m["data"])["user_id"]) for m in watcher.events if m.get("event") == event]


class DirectWatcher(ReconnectingRawClient):
    """A raw client connected straight to one node (not through nginx) that never reconnects."""

    def __init__(self, node, user, channels):
        self.node = node
        super().__init__(None, user, channels)

    def _connect(self):
        client = RawClient(self.node.ws_url(APP_A))
        for channel in self.channels:
            join_presence(client, channel, self.user)
        return client

    def _run(self):
        try:
            self.client = self._connect()
        except Exception:
            return
        with self.lock:
            self.socket_ids.append(self.client.socket_id)
            self.lock.notify_all()
        try:
            while not self.stopped:
                try:
                    message = self.client.next(timeout=0.5)
                except TimeoutError:
                    continue
                with self.lock:
                    self.events.append(message)
                    self.lock.notify_all()
        except Exception:
            return


def rest_send(nginx, token, room, client_id, text):
    """A REST send with a client id, repeated through nginx until some node answers: a retry
    of a send that reached the dead node is the same message."""
    deadline = time.monotonic() + DEADLINE
    while True:
        status, body = nginx.request("POST", f"/v1/rooms/{room}/messages", token=token,
                                     body={"client_id": client_id, "parts": [{"type": "text", "text": text}]})
        if status in (200, 201):
            return body
        assert status in (0, 502, 503, 504) and time.monotonic() < deadline, f"send {client_id}: {status} {body}"
        time.sleep(0.2)


def rest_history(nginx, token, room):
    messages, after = [], 0
    while True:
        page = nginx.ok("GET", f"/v1/rooms/{room}/messages?after={after}&limit=100", token=token)
        messages += page["messages"]
        if not page["has_more"] or not page["messages"]:
            return messages
        after = page["messages"][-1]["seq"]
