"""Parley nodes behind Debian's nginx running the shipped cluster example
(deploy/nginx/parley-cluster.conf, only its node addresses, listen port and certificate paths
rendered for this machine), seen by real peers that know only nginx's address:

- a chat round trip through nginx to two nodes: REST sends, realtime delivery to pysher, with
  the connections spread over both nodes (round robin, no sticky sessions);
- the node-SIGKILL drill: chat sends (ParleyKit and REST) and Pusher traffic flow through nginx
  to three nodes, one node is killed, and its clients (ParleyKit, pysher and a raw Pusher
  client) reconnect through nginx to the others by themselves; every ParleyKit client ends
  with every message exactly once, in order, live and in history; the dead node's presence
  members leave every presence channel on the other nodes once each, within 30 s.

Each test gets its own redis-server, PostgreSQL schema and nodes (cluster_support.py)."""
import collections
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
import uuid
from types import SimpleNamespace

import pusher
import pysher
import pytest
from pusher.requests import RequestsBackend

from chat_support import APP_A, ROOT, basic, mint
from cluster_support import METRICS_TOKEN, Cluster, PostgresInstance, free_port, wait_until
from test_parleykit_reliability import Peer, assert_exactly_once_in_order
from test_pusher_support import RawClient

CLUSTER_SITE = ROOT / "deploy" / "nginx" / "parley-cluster.conf"
CLUSTER_UNIT = ROOT / "deploy" / "systemd" / "parley-cluster.service"
DEADLINE = 60
# The stated bound for a killed node's presence members (README "Running a cluster").
PRESENCE_BOUND = 30


@pytest.fixture(scope="module")
def postgres():
    instance = PostgresInstance()
    yield instance
    instance.close()


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


@pytest.fixture
def behind_nginx(postgres, tmp_path, request):
    """A cluster of `request.param` nodes (default 2) and nginx in front of it."""
    cluster = Cluster(postgres, count=getattr(request, "param", 2))
    nginx = Nginx(tmp_path, [node.port for node in cluster.nodes])
    yield cluster, nginx
    nginx.stop()
    cluster.close()


def connections(node):
    """Pusher connections open on `node`, from its own /metrics."""
    body = node.request("GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).body.decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in body.splitlines()
               if line.startswith("parley_channels_connections{"))


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


def channel_auth(nginx, token, socket_id, channel):
    form = f"socket_id={socket_id}&channel_name={channel}".encode()
    status, body = nginx.request("POST", "/v1/channels/auth", body=form, token=token,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200, f"channel auth through nginx: {status} {body}"
    return body["auth"]


def test_chat_round_trip_through_nginx_reaches_pysher_on_both_nodes(behind_nginx):
    cluster, nginx = behind_nginx
    # Round robin without stickiness: successive requests are answered by both nodes.
    assert node_ids_behind(nginx, 6) == {cluster.health(node)["node"] for node in cluster.nodes}
    alice, bob = f"alice-{uuid.uuid4().hex[:8]}", f"bob-{uuid.uuid4().hex[:8]}"
    for user in (alice, bob):
        create_user(nginx, user)
    room = nginx.ok("POST", "/v1/rooms", token=mint(APP_A, alice), body={"kind": "private", "member_ids": [bob]})["id"]
    channel = f"private-room-{room}"
    bob_token = mint(APP_A, bob)

    def listener():
        return PysherClient(nginx, channel, "message.created",
                            auth=lambda socket_id: channel_auth(nginx, bob_token, socket_id, channel))

    listeners = [placed(cluster.nodes, listener) for _ in range(2)]
    assert sorted(index for _, index in listeners) == [0, 1], "both sockets landed on one node"
    try:
        sent = [nginx.ok("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, alice),
                         body={"client_id": f"c{i}", "parts": [{"type": "text", "text": f"hello {i}"}]})["id"]
                for i in range(3)]
        for client, _ in listeners:
            client.wait_for(lambda c: len(c.items) >= 3, "three messages")
            assert [item["message"]["id"] for item in client.items] == sent
        # A repeated client id through the other node is the same message, not a new one.
        again = nginx.ok("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, alice),
                         body={"client_id": "c0", "parts": [{"type": "text", "text": "hello 0"}]})
        assert again["id"] == sent[0]
        pusher_api = nginx.pusher_api()
        pusher_api.trigger(channel, "message.created", {"message": {"id": "marker"}})
        for client, _ in listeners:
            client.wait_for(lambda c: len(c.items) >= 4, "the marker")
            assert [item["message"]["id"] for item in client.items] == sent + ["marker"]
    finally:
        for client, _ in listeners:
            client.close()


def test_the_cluster_site_outlasts_the_ping_cycle_and_fails_over():
    text = CLUSTER_SITE.read_text()
    activity, pong = 120, 30  # the defaults of activity_timeout and pong_timeout (docs/configuration.md)
    websocket_locations = re.findall(r"location (?:/app/|~ [^{]*/ws\$) \{(.*?)\n    \}", text, re.S)
    assert len(websocket_locations) == 2
    for body in websocket_locations:
        assert 'proxy_set_header Connection "upgrade";' in body
        for directive in ("proxy_read_timeout", "proxy_send_timeout"):
            assert int(re.search(rf"{directive} (\d+)s;", body).group(1)) > activity + pong
    assert re.search(r"^\s*proxy_next_upstream error timeout;", text, re.M)
    assert not re.search(r"^\s*(ip_hash|sticky)", text, re.M)


def test_the_cluster_unit_verifies(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    from chat_support import BIN_DIR
    unit = CLUSTER_UNIT.read_text()
    assert re.search(r"^Type=notify$", unit, re.M) and re.search(r"^LimitNOFILE=\d+", unit, re.M)
    assert re.search(r"^EnvironmentFile=/etc/parley/parley.env$", unit, re.M)
    (tmp_path / "parley-cluster.service").write_text(unit.replace("/usr/local/bin/parley", str(BIN_DIR / "parley")))
    out = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "parley-cluster.service")],
                         capture_output=True, text=True, timeout=60)
    problems = [line for line in out.stderr.splitlines() if "parley-cluster.service" in line]
    assert out.returncode == 0 and not problems, out.stderr
    # Every variable the unit's comment names is one the server reads.
    example = (ROOT / "deploy" / "systemd" / "parley-cluster.env").read_text()
    names = set(re.findall(r"^(PARLEY_[A-Z_]+)=", example, re.M)) - {"PARLEY_APP_1_SECRET"}
    help_text = subprocess.run([str(BIN_DIR / "parley"), "serve", "--help"], capture_output=True, text=True).stdout
    assert names and all(name in help_text for name in names), names - {n for n in names if n in help_text}


# The node-SIGKILL drill.

ROUNDS = 30
KILL_AFTER = 10


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


@pytest.mark.parametrize("behind_nginx", [3], indirect=True)
def test_a_node_killed_mid_traffic_loses_its_clients_to_the_others_and_nothing_else(behind_nginx, tmp_path):
    cluster, nginx = behind_nginx
    doomed, survivors = cluster.nodes[0], cluster.nodes[1:]
    users = [f"kit{i}-{uuid.uuid4().hex[:6]}" for i in range(5)]
    poster = f"rest-{uuid.uuid4().hex[:6]}"
    for user in users + [poster]:
        create_user(nginx, user)
    room = nginx.ok("POST", "/v1/rooms", token=mint(APP_A, users[0]),
                    body={"kind": "private", "member_ids": users[1:] + [poster]})["id"]
    lobby, side = "presence-drill-lobby", "presence-drill-side"

    # Presence: two watchers on the survivors; members on the doomed node that will not come back.
    watchers = [DirectWatcher(node, f"watcher{i}", [lobby, side]) for i, node in enumerate(survivors)]
    victims = {"victim-lobby": [lobby], "victim-side": [side], "victim-both": [lobby, side]}
    doomed_members = [DirectWatcher(doomed, user, channels) for user, channels in victims.items()]
    everyone = watchers + doomed_members

    # Through nginx, clients of each kind until one of them is on the doomed node (least_conn
    # hands each new socket to the node with the fewest, so this takes at most a few), each
    # placed by the nodes' own connection counts.
    def until_one_on_doomed(connect, limit=5):
        placements = []
        while not any(index == 0 for _, index in placements):
            assert len(placements) < limit, f"{limit} clients through nginx and none on the doomed node: {placements}"
            placements.append(placed(cluster.nodes, lambda: connect(len(placements))))
        return placements

    server = SimpleNamespace(url=nginx.url)

    def kit(i):
        user = users[i]
        peer = Peer(user, server, mint(APP_A, user, ttl=7200), tmp_path / f"{user}.sqlite",
                    extra_args=["--app-key", APP_A["key"], "--ca", str(nginx.certificate)])
        peer.command("connect")
        peer.command(f"watch {room} 0")
        peer.wait_online()
        return peer

    pyshers = until_one_on_doomed(lambda i: PysherClient(nginx, "drill-ticks", "tick"))
    raws = until_one_on_doomed(lambda i: ReconnectingRawClient(nginx, f"raw{i}", [lobby, "drill-ticks"]))
    kits = until_one_on_doomed(kit)
    if len(kits) == 1:  # and one ParleyKit client on a surviving node as well
        kits.append(placed(cluster.nodes, lambda: kit(1)))
    raw_users = {client.user for client, _ in raws}
    on_doomed = {kind: next(client for client, index in placements if index == 0)
                 for kind, placements in (("pysher", pyshers), ("raw", raws), ("ParleyKit", kits))}
    for watcher in watchers:
        watcher.wait_for(lambda w: {u for _, u in presence_events(w, "pusher_internal:member_added")} >= set(victims),
                         "the victims joined")

    api = nginx.pusher_api()
    sent = collections.defaultdict(list)
    published = []
    try:
        for r in range(ROUNDS):
            if r == KILL_AFTER:
                doomed.kill()
                killed_at = time.monotonic()
            for peer, _ in kits:
                sent[peer.name].append(peer.send(room, f"{peer.name}-{r}"))
            client_id = f"{poster}-{r}"
            rest_send(nginx, mint(APP_A, poster), room, client_id, client_id)
            sent[poster].append(client_id)
            try:  # at most once, as Pusher's: a trigger in flight to the dying node may be lost
                api.trigger("drill-ticks", "tick", {"n": r})
                published.append(r)
            except Exception:
                pass
            time.sleep(0.05)

        everything = [cid for ids in sent.values() for cid in ids]
        # ParleyKit: every message of every sender once, in seq order, live and in history.
        for peer, _ in kits:
            peer.wait_outbox_empty()
            peer.wait_for_messages(room, everything)
            assert_exactly_once_in_order(peer.feed(room), everything, peer.name)
            history = peer.command(f"history {room}")["messages"]
            assert [m["client_id"] for m in history] == [m["client_id"] for m in peer.feed(room)], peer.name
        assert on_doomed["ParleyKit"].online_count() >= 2, "the doomed node's ParleyKit client never reconnected"

        # pysher and the raw client: reconnected elsewhere and receiving again; nothing twice.
        last = published[-1]
        assert last > KILL_AFTER
        for client, _ in pyshers:
            client.wait_for(lambda c: any(item["n"] == last for item in c.items), "the last tick")
            ticks = [item["n"] for item in client.items]
            assert len(ticks) == len(set(ticks)), f"pysher got a tick twice: {ticks}"
        assert on_doomed["pysher"].established >= 2
        for client, _ in raws:
            client.wait_for(lambda c: last in c.ticks(), "the last tick")
            assert len(client.ticks()) == len(set(client.ticks())), client.ticks()
        assert len(on_doomed["raw"].socket_ids) >= 2

        # Presence: each victim leaves each of its channels once on every surviving node,
        # within the bound; the reconnected raw users (members again elsewhere) never leave.
        expected = collections.Counter((channel, user) for user, channels in victims.items() for channel in channels)
        for watcher in watchers:
            remaining = PRESENCE_BOUND - (time.monotonic() - killed_at)
            watcher.wait_for(lambda w: collections.Counter(presence_events(w, "pusher_internal:member_removed")) >= expected,
                             f"the victims removed within {PRESENCE_BOUND} s of the kill", timeout=max(0.1, remaining))
        time.sleep(1)
        for watcher in watchers:
            assert collections.Counter(presence_events(watcher, "pusher_internal:member_removed")) == expected
        for node in survivors:
            direct = pusher.Pusher(app_id=APP_A["id"], key=APP_A["key"], secret=APP_A["secret"], host="127.0.0.1",
                                   port=node.port, ssl=False)
            wait_until(lambda: {u["id"] for u in direct.users_info(lobby)["users"]} == {"watcher0", "watcher1"} | raw_users,
                       what="the lobby's members: the watchers and the raw clients, no victim")

        # The REST history through nginx holds every message once.
        history = rest_history(nginx, mint(APP_A, users[0]), room)
        assert sorted(m["client_id"] for m in history) == sorted(everything)
    finally:
        for peer, _ in kits:
            peer.close()
        for client, _ in pyshers + raws:
            client.close()
        for client in everyone:
            client.close()


def rest_history(nginx, token, room):
    messages, after = [], 0
    while True:
        page = nginx.ok("GET", f"/v1/rooms/{room}/messages?after={after}&limit=100", token=token)
        messages += page["messages"]
        if not page["has_more"] or not page["messages"]:
            return messages
        after = page["messages"][-1]["seq"]
