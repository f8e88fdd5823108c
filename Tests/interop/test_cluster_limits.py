"""What used to be each node's own is the cluster's, seen by real peers on different nodes:
webhooks fire once per cluster-wide change (also when a node dies), the per-app connection
limit and `max_presence_members` count the whole cluster, and `subscription_count` is the
cluster's. Each test gets its own redis-server, PostgreSQL schema and three nodes."""
import json
import time
from collections import Counter

import pytest
from websockets.sync.client import connect

from chat_support import APP_A, APP_B
from cluster_support import Cluster, PostgresInstance, decoded, wait_until
from test_cluster import api, join_presence, raw, sign, wait_for_member
from test_pusher_support import WebhookReceiver

LEAVE_DELAY_MS = 300


@pytest.fixture(scope="module")
def postgres():
    instance = PostgresInstance()
    yield instance
    instance.close()


@pytest.fixture
def hooks():
    receiver = WebhookReceiver()
    yield receiver
    receiver.server.shutdown()


def cluster_with(postgres, **app_settings):
    """Three nodes whose APP_A has `app_settings` (webhooks, limits, subscription_count)."""
    config = {"webhook_batch_ms": 20, "webhook_leave_delay_ms": LEAVE_DELAY_MS,
              "apps": [dict(APP_A, client_events=True, user_authentication=True, **app_settings),
                       dict(APP_B, client_events=True, user_authentication=True)]}
    return Cluster(postgres, count=3, config=config)


@pytest.fixture
def hooked(postgres, hooks):
    c = cluster_with(postgres, webhooks=[{"url": f"http://127.0.0.1:{hooks.port}/hook"}])
    yield c
    c.close()


def tally(hooks, channel):
    """(name, user) → how many times the webhook arrived for `channel`."""
    return Counter((e["name"], e.get("user_id")) for e in hooks.events() if e["channel"] == channel)


def settled(hooks, channel, expected, what, timeout=15):
    """Waits for `expected` webhooks, then a while longer (every node's batch window and leave
    delay several times over) to see no node sends one more."""
    assert hooks.wait_for(lambda _: all(tally(hooks, channel)[k] >= n for k, n in expected.items()), timeout=timeout), \
        f"{what}: {tally(hooks, channel)}"
    time.sleep(4 * LEAVE_DELAY_MS / 1000 + 1)
    counts = tally(hooks, channel)
    assert {k: counts[k] for k in expected} == expected and sum(counts.values()) == sum(expected.values()), \
        f"{what}: {counts}"


def test_webhooks_fire_once_per_cluster_wide_change(hooked, hooks):
    a, b, c = hooked.nodes
    channel = "presence-hooked"
    # The same user on two nodes, another on the third, all joining at about the same time.
    clients = [raw(a), raw(b), raw(c)]
    for client, user in zip(clients, ["ann", "ann", "bob"]):
        data = json.dumps({"user_id": user, "user_info": {"name": user}})
        client.subscribe(channel, {"auth": sign(APP_A, client.socket_id, channel, data), "channel_data": data})
    for client in clients:
        client.expect("pusher_internal:subscription_succeeded", channel)
    settled(hooks, channel, {("channel_occupied", None): 1, ("member_added", "ann"): 1, ("member_added", "bob"): 1},
            "joining on three nodes")
    for client in clients:
        client.close()
    settled(hooks, channel,
            {("channel_occupied", None): 1, ("member_added", "ann"): 1, ("member_added", "bob"): 1,
             ("channel_vacated", None): 1, ("member_removed", "ann"): 1, ("member_removed", "bob"): 1},
            "leaving on three nodes")


def test_the_last_subscriber_anywhere_vacates_a_public_channel_once(hooked, hooks):
    a, b, _ = hooked.nodes
    first, second = raw(a), raw(b)
    for client in (first, second):
        client.subscribe("plain-hooked")
        client.expect("pusher_internal:subscription_succeeded", "plain-hooked")
    first.close()
    time.sleep(4 * LEAVE_DELAY_MS / 1000 + 1)
    assert tally(hooks, "plain-hooked") == Counter({("channel_occupied", None): 1})  # still occupied on b
    second.close()
    settled(hooks, "plain-hooked", {("channel_occupied", None): 1, ("channel_vacated", None): 1}, "the last one leaving")


def test_a_subscriber_answered_on_one_node_keeps_channels_occupied_when_the_last_leaves_another(hooked, hooks):
    """On many channels at once, a subscriber on b is answered and then the channel's only other
    one, on a, closes: b answers only once Redis counted its arrival, so none is vacated."""
    a, b, _ = hooked.nodes
    channels = [f"handover-{i}" for i in range(12)]
    leaving = {}
    for channel in channels:
        leaving[channel] = raw(a)
        leaving[channel].subscribe(channel)
        leaving[channel].expect("pusher_internal:subscription_succeeded", channel)
    assert hooks.wait_for(lambda _: all(tally(hooks, c)[("channel_occupied", None)] == 1 for c in channels))
    arriving = []
    for channel in channels:
        client = raw(b)
        client.subscribe(channel)
        client.expect("pusher_internal:subscription_succeeded", channel)
        leaving[channel].close()
        arriving.append(client)
    time.sleep(4 * LEAVE_DELAY_MS / 1000 + 1)
    wrong = {channel: dict(tally(hooks, channel)) for channel in channels
             if tally(hooks, channel) != Counter({("channel_occupied", None): 1})}
    assert not wrong, wrong


def test_a_killed_nodes_channels_and_members_are_reported_gone_once(hooked, hooks):
    a, b, c = hooked.nodes
    watcher = raw(b)
    join_presence(watcher, "presence-doomed", "watcher")
    victim = raw(a)
    join_presence(victim, "presence-doomed", "victim")
    alone = raw(a)
    alone.subscribe("only-on-a")
    alone.expect("pusher_internal:subscription_succeeded", "only-on-a")
    wait_for_member(watcher, "pusher_internal:member_added", "presence-doomed", "victim")
    assert hooks.wait_for(lambda _: tally(hooks, "only-on-a")[("channel_occupied", None)] == 1)
    a.kill()
    # A share lives 15 s and is read every 5 s; the node that removes the dead one's claims fires.
    settled(hooks, "only-on-a", {("channel_occupied", None): 1, ("channel_vacated", None): 1}, "a dead node's channel",
            timeout=35)
    counts = tally(hooks, "presence-doomed")
    assert counts[("member_removed", "victim")] == 1 and counts[("channel_vacated", None)] == 0, counts
    assert counts[("member_added", "victim")] == 1 and counts[("member_added", "watcher")] == 1, counts


def refused_connection(node):
    """Connects; the 4004 refusal's code, or None when the connection was admitted (closed again)."""
    with connect(node.ws_url(APP_A), open_timeout=10) as ws:
        message = json.loads(ws.recv(timeout=5))
        if message["event"] == "pusher:error":
            return decoded(message["data"])["code"]
        return None


def test_the_connection_limit_counts_every_node(postgres):
    cluster = cluster_with(postgres, limits={"max_connections": 2})
    try:
        a, b, c = cluster.nodes
        held = [raw(a), raw(b)]
        # Counts travel once a second: within a few seconds node c refuses the third.
        assert wait_until(lambda: refused_connection(c) == 4004, timeout=10, what="node c refusing a third connection")
        held[0].close()
        assert wait_until(lambda: refused_connection(c) is None, timeout=10, what="node c admitting one again")
    finally:
        cluster.close()


def test_max_presence_members_counts_every_node(postgres):
    cluster = cluster_with(postgres, limits={"max_presence_members": 2})
    try:
        a, b, c = cluster.nodes
        channel = "presence-small"
        join_presence(raw(a), channel, "u1")
        join_presence(raw(b), channel, "u2")
        wait_until(lambda: len(api(c).users_info(channel)["users"]) == 2, what="node c seeing both members")
        late = raw(c)
        data = json.dumps({"user_id": "u3", "user_info": {"name": "u3"}})
        late.subscribe(channel, {"auth": sign(APP_A, late.socket_id, channel, data), "channel_data": data})
        error = late.expect("pusher:subscription_error", channel)
        assert decoded(error["data"])["status"] == 403
        # A member already present elsewhere still joins: they are not a new member.
        again = raw(c)
        join_presence(again, channel, "u1")
    finally:
        cluster.close()


def test_subscription_count_is_the_clusters(postgres):
    cluster = cluster_with(postgres, subscription_count=True)
    try:
        a, b, c = cluster.nodes
        first = raw(a)
        first.subscribe("counted")
        first.expect("pusher_internal:subscription_succeeded", "counted")

        def count_reaches(client, n):
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                message = client.expect("pusher_internal:subscription_count", "counted",
                                        timeout=max(0.01, deadline - time.monotonic()))
                if decoded(message["data"])["subscription_count"] == n:
                    return True
            return False

        assert count_reaches(first, 1)
        others = [raw(b), raw(c)]
        for client in others:
            client.subscribe("counted")
            client.expect("pusher_internal:subscription_succeeded", "counted")
        # Node a's subscriber hears of the subscriptions made on b and c.
        assert count_reaches(first, 3)
        assert count_reaches(others[1], 3)
        others[0].close()
        assert count_reaches(first, 2)
        assert api(a).channel_info("counted", ["subscription_count"])["subscription_count"] == 2
    finally:
        cluster.close()
