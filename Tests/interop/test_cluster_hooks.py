"""Two `parley serve` nodes on one PostgreSQL database, both delivering from the one chat hook
outbox: every event reaches the endpoint exactly once (no duplicates, none lost), only one
`notification.needed` goes out per member and quiet period between the two nodes, and slow
mode paces a member across both. Needs PARLEY_TEST_POSTGRES_URL. The nodes and the endpoint
listen on ports of PARLEY_TEST_PORTS when it is set (chat_support.serve_port), else on free ones."""
import json
import subprocess
import threading
import time
from collections import Counter

import pytest

from chat_support import APP_A, ChatServer, create_user, mint, postgres_schema_url, serve_port, unique
from test_chat_hooks import HookEndpoint

QUIET_MS = 600000


class HookedNode(ChatServer):
    """APP_A with its chat webhooks at /events and its notification hook at /push of `endpoint`."""

    def __init__(self, endpoint, database):
        super().__init__(database=database)
        app = dict(APP_A, client_events=True, user_authentication=True,
                   chat_webhooks=[{"url": endpoint.url("/events")}],
                   notification_hook={"url": endpoint.url("/push"), "quiet_period_ms": QUIET_MS})
        (self.work / "apps.json").write_text(json.dumps({"apps": [app]}))


@pytest.fixture(scope="module")
def nodes():
    scoped = postgres_schema_url()
    if scoped is None:
        pytest.skip("PARLEY_TEST_POSTGRES_URL is not set (scripts/test.sh starts a private PostgreSQL instance)")
    url, schema = scoped
    endpoint = HookEndpoint(port=serve_port())
    # The first node migrates the schema; the second starts on the migrated database.
    first = HookedNode(endpoint, url).start()
    second = HookedNode(endpoint, url).start()
    yield first, second, endpoint
    first.stop()
    second.stop()
    endpoint.close()
    base = url.split("&options=")[0].split("?options=")[0]
    subprocess.run(["psql", base, "-qc", f"DROP SCHEMA {schema} CASCADE"], check=False, capture_output=True)
    assert not endpoint.bad_signatures, f"requests with a bad signature: {endpoint.bad_signatures[:3]}"


def room_with(node, *members):
    owner = unique("owner")
    for user in (owner, *members):
        create_user(node, APP_A, user)
    room = node.ok("POST", "/v1/rooms", token=mint(APP_A, owner), json_body={"kind": "private", "member_ids": list(members)})
    return owner, room["id"]


def send(node, user, room, text, expect=(201,)):
    return node.ok("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, user),
                   json_body={"parts": [{"type": "text", "text": text}]}, expect=expect)


def created_in(room, events):
    return [e for e in events if e["type"] == "message.created" and e["data"].get("room_id") == room]


def test_every_event_is_delivered_exactly_once_while_both_nodes_claim(nodes):
    first, second, endpoint = nodes
    owner, room = room_with(first, unique("bob"))
    count = 60
    sent = []
    lock = threading.Lock()

    def sender(node, offset):
        for index in range(offset, count, 2):
            message = send(node, owner, room, f"m{index}")
            with lock:
                sent.append(message["id"])

    threads = [threading.Thread(target=sender, args=(node, offset)) for offset, node in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(sent) == count
    events = endpoint.wait_for(lambda events: len(created_in(room, events)) >= count, timeout=30)
    time.sleep(1.5)  # a duplicate would come from the other node's claim of the same rows
    events = endpoint.events()
    created = [event for _, event in events if event["type"] == "message.created" and event["data"].get("room_id") == room]
    ids = Counter(event["data"]["message"]["id"] for event in created)
    assert sorted(ids) == sorted(sent), "no event is lost"
    assert set(ids.values()) == {1}, f"delivered more than once: {[i for i, n in ids.items() if n > 1]}"
    assert len({event["id"] for event in created}) == count


def test_one_notification_per_quiet_period_across_both_nodes(nodes):
    first, second, endpoint = nodes
    bob = unique("bob")
    owner, room = room_with(first, bob)
    for index, node in enumerate((first, second, first, second)):
        send(node, owner, room, f"while bob is away {index}")
    endpoint.wait_for(lambda events: len(created_in(room, events)) >= 4)
    notified = lambda: [event for _, event in endpoint.events("/push")
                        if event["type"] == "notification.needed" and event["data"]["room_id"] == room]
    deadline = time.monotonic() + 10
    while not notified() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.5)  # the second node's notification would follow its message.created
    assert [event["data"]["user_id"] for event in notified()] == [bob]


def test_slow_mode_paces_a_member_across_both_nodes(nodes):
    first, second, _ = nodes
    bob = unique("bob")
    owner, room = room_with(first, bob)
    first.ok("PATCH", f"/v1/rooms/{room}/moderation", token=mint(APP_A, owner), json_body={"slow_mode_seconds": 30})
    send(first, bob, room, "first")
    refused = second.request("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, bob),
                             json_body={"parts": [{"type": "text", "text": "too early"}]})
    assert refused.status == 429 and refused.error_code == "slow_mode", refused
    retry_after = {name.lower(): value for name, value in refused.headers.items()}["retry-after"]
    assert 1 <= int(retry_after) <= 30
    send(second, owner, room, "owners are not paced")
    history = second.ok("GET", f"/v1/rooms/{room}/messages", token=mint(APP_A, owner))["messages"]
    assert [m["parts"][0]["text"] for m in history] == ["first", "owners are not paced"]
