"""Durable chat webhooks: events a server acknowledged reach the endpoint even when the
server is killed (SIGKILL, no shutdown work) while the endpoint is down, once it restarts and
the endpoint comes up. Delivery is at least once, so the endpoint dedupes on the event `id`;
every request it gets is checked against the app secret with Python's own hmac (HookEndpoint).
Runs on SQLite and, with PARLEY_TEST_POSTGRES_URL, on PostgreSQL."""
import json
import socket
import subprocess
import time

import pytest

from chat_support import APP_A, ChatServer, create_user, mint, postgres_schema_url, unique
from test_chat_hooks import HookEndpoint

METRICS_TOKEN = "outbox-metrics-token"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def scrape(server):
    """`/metrics` as {name{labels}: value}."""
    answer = server.request("GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert answer.status == 200, answer
    samples = {}
    for line in answer.body.decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def wait_metric(server, name, predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        value = scrape(server).get(name)
        if value is not None and predicate(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{name} is {value}")
        time.sleep(0.1)


class OutboxServer(ChatServer):
    """APP_A with one chat webhook endpoint at `url` (and /metrics behind a token)."""

    def __init__(self, url, database=None):
        super().__init__(database=database, extra_args=["--metrics-token", METRICS_TOKEN])
        app = dict(APP_A, client_events=True, user_authentication=True, chat_webhooks=[{"url": url}])
        (self.work / "apps.json").write_text(json.dumps({"apps": [app]}))


@pytest.fixture(params=["sqlite", "postgres"])
def database(request):
    if request.param == "sqlite":
        yield None
        return
    scoped = postgres_schema_url()
    if scoped is None:
        pytest.skip("PARLEY_TEST_POSTGRES_URL is not set (scripts/test.sh starts a private PostgreSQL instance)")
    yield scoped[0]
    base = scoped[0].split("&options=")[0].split("?options=")[0]
    subprocess.run(["psql", base, "-qc", f"DROP SCHEMA {scoped[1]} CASCADE"], check=False, capture_output=True)


def test_acknowledged_events_survive_a_crash_while_the_endpoint_is_down(database):
    port = free_port()
    server = OutboxServer(f"http://127.0.0.1:{port}/events", database).start()
    endpoint = None
    try:
        alice, bob = unique("alice"), unique("bob")
        for user in (alice, bob):
            create_user(server, APP_A, user)
        token = mint(APP_A, alice)
        room = server.ok("POST", "/v1/rooms", token=token, json_body={"kind": "private", "member_ids": [bob]})["id"]
        sent = [server.ok("POST", f"/v1/rooms/{room}/messages", token=token,
                          json_body={"parts": [{"type": "text", "text": f"m{i}"}]}, expect=(201,)) for i in range(3)]
        server.ok("PATCH", f"/v1/rooms/{room}/messages/{sent[0]['id']}", token=token,
                  json_body={"parts": [{"type": "text", "text": "m0 edited"}]})
        server.ok("PUT", f"/v1/rooms/{room}/messages/{sent[1]['id']}/reactions/%F0%9F%91%8D", token=mint(APP_A, bob))
        server.ok("DELETE", f"/v1/rooms/{room}/messages/{sent[2]['id']}", token=token)
        # The endpoint is down: the server has tried and failed, and holds every event.
        wait_metric(server, "parley_chat_hook_requests_failed_total", lambda v: v >= 1)
        wait_metric(server, "parley_chat_hook_outbox_pending", lambda v: v == 7)
        server.kill()

        server.start()
        time.sleep(0.5)  # the restarted server finds the endpoint still down at first
        endpoint = HookEndpoint(port)
        events = endpoint.wait_for(lambda events: len({e["id"] for e in events}) >= 7, timeout=60)
        unique_events = list({e["id"]: e for e in events}.values())
        assert len(unique_events) == 7, json.dumps(unique_events)[:3000]
        kinds = sorted(e["type"] for e in unique_events)
        assert kinds == sorted(["room.created", "message.created", "message.created", "message.created",
                                "message.updated", "reaction.added", "message.deleted"])
        assert all(e["data"]["room_id"] == room for e in unique_events)
        texts = sorted(e["data"]["message"]["parts"][0]["text"] for e in unique_events if e["type"] == "message.created")
        assert texts == ["m0", "m1", "m2"]
        assert not endpoint.bad_signatures, endpoint.bad_signatures[:3]
        # Delivered rows leave the outbox.
        wait_metric(server, "parley_chat_hook_outbox_pending", lambda v: v == 0)
        assert scrape(server)["parley_chat_hook_events_sent_total"] >= 7
    finally:
        server.stop()
        if endpoint:
            endpoint.close()
