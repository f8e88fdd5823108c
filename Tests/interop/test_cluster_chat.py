"""Chat across several `parley serve --redis` nodes, seen by real clients on different nodes:
typing, unread counts, users' online status and "last seen" answer for the whole cluster, a
user going offline everywhere is announced once, and a pysher client subscribed to a room
gets every message sent through another node during a Redis outage once Redis is back,
without reconnecting. Each test gets its own redis-server, PostgreSQL schema and three nodes
(cluster_support.py)."""
import hashlib
import hmac
import json
import threading
import time

import pusher
import pysher
import pytest

from chat_support import APP_A, create_user, mint, unique
from cluster_support import METRICS_TOKEN, Cluster, PostgresInstance, decoded, wait_until
from test_pusher_support import RawClient


@pytest.fixture(scope="module")
def postgres():
    instance = PostgresInstance()
    yield instance
    instance.close()


@pytest.fixture
def cluster(postgres):
    c = Cluster(postgres, count=3)
    yield c
    c.close()


class Room:
    """A private room of alice, bob and carol, made through node a."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.alice, self.bob, self.carol = unique("alice"), unique("bob"), unique("carol")
        a = cluster.nodes[0]
        for user in (self.alice, self.bob, self.carol):
            create_user(a, APP_A, user)
        self.id = a.ok("POST", "/v1/rooms", token=mint(APP_A, self.alice),
                       json_body={"kind": "private", "member_ids": [self.bob, self.carol]})["id"]
        self.channel = f"private-room-{self.id}"

    def send(self, node, user, text):
        return node.ok("POST", f"/v1/rooms/{self.id}/messages", token=mint(APP_A, user),
                       json_body={"parts": [{"type": "text", "text": text}]})

    def listen(self, node, user, sign_in=False):
        return node.realtime(mint(APP_A, user), sign_in=sign_in).join(self.channel)

    def summary(self, node, user):
        rooms = node.ok("GET", "/v1/me/rooms", token=mint(APP_A, user))["rooms"]
        return next(r for r in rooms if r["room"]["id"] == self.id)

    def presence(self, node, user, asker):
        return node.ok("GET", f"/v1/users/{user}/presence", token=mint(APP_A, asker))


@pytest.fixture
def room(cluster):
    return Room(cluster)


def known_everywhere(cluster, channel, count):
    """Waits until every node counts `count` subscriptions to the channel (so events travel to them)."""
    def check():
        return all(api(node).channel_info(channel, ["subscription_count"]).get("subscription_count") == count
                   for node in cluster.nodes)
    wait_until(check, what=f"{channel} with {count} subscriptions on every node")


def api(node):
    return pusher.Pusher(app_id=APP_A["id"], key=APP_A["key"], secret=APP_A["secret"], host="127.0.0.1", port=node.port,
                         ssl=False)


def test_typing_crosses_nodes(cluster, room):
    a, b, _ = cluster.nodes
    bob = room.listen(b, room.bob)
    try:
        known_everywhere(cluster, room.channel, 1)
        # The typing notices are events on the room channel: the bus carries them to b.
        a.ok("POST", f"/v1/rooms/{room.id}/typing", token=mint(APP_A, room.alice), json_body={})
        assert bob.event("typing", room.channel) == {"room_id": room.id, "user_id": room.alice}
        a.ok("DELETE", f"/v1/rooms/{room.id}/typing", token=mint(APP_A, room.alice))
        assert bob.event("typing.stopped", room.channel) == {"room_id": room.id, "user_id": room.alice}
    finally:
        bob.close()


def test_unread_counts_and_reads_cross_nodes(cluster, room):
    a, b, c = cluster.nodes
    sent = [room.send(a, room.alice, f"m{i}") for i in range(3)]
    # Unread counts come from the shared store: every node answers the same.
    for node in cluster.nodes:
        assert room.summary(node, room.bob)["unread_count"] == 3
    # Bob reads on b; his other device on c hears it at once (room.read on his user channel).
    user_channel = f"#server-to-user-{room.bob}"
    other_device = c.realtime(mint(APP_A, room.bob), sign_in=True)
    other_device.subscribe(user_channel)
    other_device.expect("pusher_internal:subscription_succeeded", user_channel)
    try:
        deadline = time.monotonic() + 10
        moved = False
        seq = sent[1]["seq"]
        while True:
            b.ok("PUT", f"/v1/rooms/{room.id}/cursor", token=mint(APP_A, room.bob), json_body={"seq": seq})
            try:
                event = other_device.event("room.read", user_channel, timeout=0.5)
                moved = True
                break
            except TimeoutError:
                # The read was already recorded (the event had nowhere to go yet): read one more.
                seq = sent[2]["seq"]
                assert time.monotonic() < deadline, "room.read never reached node c"
        assert moved and event["room_id"] == room.id
        assert event["unread_count"] == 3 - event["read_seq"]
        for node in cluster.nodes:
            summary = room.summary(node, room.bob)
            assert summary["read_seq"] == event["read_seq"] and summary["unread_count"] == event["unread_count"]
    finally:
        other_device.close()


def bus_messages_out(node):
    body = node.request("GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).body.decode()
    line = next(l for l in body.splitlines() if l.startswith("parley_bus_messages_out_total{"))
    return float(line.rsplit(" ", 1)[1])


def offline_events(listener, channel, user, wait):
    """Every presence.changed about `user` that arrives within `wait` seconds."""
    found = []
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            found.append(listener.event("presence.changed", channel, timeout=max(0.01, deadline - time.monotonic()),
                                        where=lambda d: d["user_id"] == user))
        except TimeoutError:
            break
    return found


def test_online_status_is_cluster_wide_and_offline_is_announced_once(cluster, room):
    a, b, c = cluster.nodes
    bob, carol = room.listen(b, room.bob), room.listen(c, room.carol)
    try:
        known_everywhere(cluster, room.channel, 2)
        for node in cluster.nodes:
            assert room.presence(node, room.alice, room.bob)["online"] is False
        # Alice signs in on a only: every node says she is online, and both rooms' listeners hear it once.
        first = a.realtime(mint(APP_A, room.alice), sign_in=True)
        for listener in (bob, carol):
            assert listener.event("presence.changed", room.channel, where=lambda d: d["user_id"] == room.alice,
                                  timeout=10)["online"] is True
        for node in (b, c):
            wait_until(lambda: room.presence(node, room.alice, room.bob)["online"] is True, timeout=5,
                       what=f"alice online as seen from {node.port}")
        # A second connection on b, then the first one closes: she is still online everywhere.
        sent_before = bus_messages_out(b)
        second = b.realtime(mint(APP_A, room.alice), sign_in=True)
        # b tells the bus of its signed-in user (one message) before the first connection closes.
        wait_until(lambda: bus_messages_out(b) > sent_before, what="b announcing its signed-in user")
        first.close()
        assert offline_events(bob, room.channel, room.alice, wait=1.0) == []
        for node in cluster.nodes:
            assert room.presence(node, room.alice, room.carol)["online"] is True
        # The last connection anywhere closes: offline, announced once, last seen everywhere.
        second.close()
        for listener in (bob, carol):
            events = offline_events(listener, room.channel, room.alice, wait=3.0)
            assert [e["online"] for e in events] == [False], events
            assert events[0]["last_seen_at"] is not None
        for node in cluster.nodes:
            status = room.presence(node, room.alice, room.bob)
            assert status["online"] is False and status["last_seen_at"] > 0, (node.port, status)
    finally:
        bob.close()
        carol.close()


class RoomInbox:
    """A pysher client on one node, subscribed to a room's private channel through Parley's
    channel auth endpoint, recording message.created in arrival order."""

    def __init__(self, node, room, user):
        self.items = []
        self.states = []
        self.lock = threading.Condition()
        self.client = pysher.Pusher(APP_A["key"], secure=False, custom_host="127.0.0.1", port=node.port,
                                    auth_endpoint=f"http://127.0.0.1:{node.port}/v1/channels/auth",
                                    auth_endpoint_headers={"Authorization": f"Bearer {mint(APP_A, user)}"},
                                    reconnect_interval=1)
        subscribed = threading.Event()

        def connected(_):
            self.states.append(self.client.connection.socket_id)
            channel = self.client.subscribe(room.channel)
            channel.bind("message.created", self.add)
            channel.bind("pusher_internal:subscription_succeeded", lambda *_: subscribed.set())

        self.client.connection.bind("pusher:connection_established", connected)
        self.client.connect()
        assert subscribed.wait(10), "pysher did not subscribe"

    def add(self, data):
        with self.lock:
            self.items.append(decoded(data)["seq"])
            self.lock.notify_all()

    def wait(self, predicate, timeout):
        with self.lock:
            assert self.lock.wait_for(lambda: predicate(self.items), timeout), self.items
            return list(self.items)

    def close(self):
        self.client.disconnect(timeout=5)


def test_messages_sent_during_a_redis_outage_reach_other_nodes_once_redis_is_back(cluster, room):
    a, b, c = cluster.nodes
    far = RoomInbox(b, room, room.bob)
    near = RoomInbox(a, room, room.carol)
    try:
        known_everywhere(cluster, room.channel, 2)
        before = room.send(a, room.alice, "before")["seq"]
        far.wait(lambda items: before in items, timeout=5)
        cluster.redis.stop()
        for node in cluster.nodes:
            cluster.wait_health(node, "degraded")
        # About ten seconds without Redis; messages keep being stored through a and c.
        during = []
        for i in range(10):
            node = a if i % 2 == 0 else c
            during.append(room.send(node, room.alice, f"during {i}")["seq"])
            time.sleep(1)
        # a's own subscriber got a's messages at once.
        near.wait(lambda items: set(during[0::2]) <= set(items), timeout=5)
        assert not set(during) & set(far.items), far.items
        cluster.redis.start()
        # The stated bound: every message within 5 s of Redis returning, without reconnecting.
        got = far.wait(lambda items: set(during) <= set(items), timeout=5)
        after = room.send(a, room.alice, "after")["seq"]
        got = far.wait(lambda items: after in items, timeout=10)
        time.sleep(0.5)
        got = list(far.items)
        expected = [before] + during + [after]
        assert got == expected, got
        assert len(far.states) == 1, "the pysher client reconnected"
    finally:
        far.close()
        near.close()


def join_presence(node, channel, user):
    client = RawClient(node.ws_url(APP_A))
    data = json.dumps({"user_id": user, "user_info": {"name": user}})
    text = f"{client.socket_id}:{channel}:{data}"
    auth = f"{APP_A['key']}:" + hmac.new(APP_A["secret"].encode(), text.encode(), hashlib.sha256).hexdigest()
    client.subscribe(channel, {"auth": auth, "channel_data": data})
    client.expect("pusher_internal:subscription_succeeded", channel)
    return client


def members_everywhere(cluster, channel, users):
    def check():
        return all(sorted(u["id"] for u in api(node).users_info(channel)["users"]) == users for node in cluster.nodes)
    wait_until(check, timeout=20, what=f"{channel} members {users} on every node")


def test_a_redis_restart_keeps_every_node_writing_and_rebuilds_presence(cluster, room):
    a, b, c = cluster.nodes
    watcher = join_presence(c, "presence-drill", "w")
    member = join_presence(b, "presence-drill", "m")
    assert decoded(watcher.expect("pusher_internal:member_added", "presence-drill", timeout=10)["data"])["user_id"] == "m"
    members_everywhere(cluster, "presence-drill", ["m", "w"])
    cluster.redis.stop()
    for node in cluster.nodes:
        assert cluster.wait_health(node, "degraded")["reason"]
    # Every node keeps taking writes (chat and users) while Redis is away.
    for i, node in enumerate(cluster.nodes):
        room.send(node, room.alice, f"while away {i}")
        create_user(node, APP_A, unique("during"))
    cluster.redis.start()
    for node in cluster.nodes:
        cluster.wait_health(node, "ok", timeout=10)
    # Redis came back empty: each node stores its share again, and the members are the same
    # everywhere, without a member leaving and coming back on the way.
    members_everywhere(cluster, "presence-drill", ["m", "w"])
    assert watcher.nothing("pusher_internal:member_removed", wait=6)
    history = a.ok("GET", f"/v1/rooms/{room.id}/messages", token=mint(APP_A, room.bob))["messages"]
    assert [m["parts"][0]["text"] for m in history][-3:] == ["while away 0", "while away 1", "while away 2"]
    # The shared state is live again: a member joining through a is seen on c.
    late = join_presence(a, "presence-drill", "late")
    assert decoded(watcher.expect("pusher_internal:member_added", "presence-drill", timeout=10)["data"])["user_id"] == "late"
    members_everywhere(cluster, "presence-drill", ["late", "m", "w"])
    for client in (watcher, member, late):
        client.close()
