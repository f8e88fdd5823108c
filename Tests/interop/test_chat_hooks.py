"""Chat webhooks, the before-send hook and the notification hook, received by a real HTTP
endpoint (Python's http.server in a thread) that checks every request's signature with
Python's own hmac: `v1=` + hex HMAC-SHA256(app secret, "{X-Parley-Timestamp}.{body}").

APP_A fails open (`on_failure: allow`), APP_B fails closed (`reject`). The endpoint decides
before-send answers from the message text, so one server covers allow, reject, rewrite and a
timeout. Nothing here compares durations: a slow endpoint is shown not to slow sends by the
send returning while the endpoint still holds its request."""
import hashlib
import hmac
import json
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from chat_support import APP_A, APP_B, ChatServer, basic, create_user, mint, postgres_schema_url, unique

BEFORE_SEND_TIMEOUT_MS = 400
METRICS_TOKEN = "hooks-metrics-token"


class HookEndpoint:
    """An HTTP server recording every POST (path, headers, body) after verifying its signature."""

    def __init__(self, port=0):
        self.lock = threading.Condition()
        self.requests = []
        self.bad_signatures = []
        self.fail_next = {}  # path -> statuses to answer before 200
        self.hold = threading.Event()
        self.hold.set()
        self.holding = threading.Event()  # set while a held request waits
        self.release_slow = threading.Event()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                endpoint.record(self.path, self.headers, body)
                status, answer = endpoint.answer(self.path, body)
                payload = json.dumps(answer).encode() if answer is not None else b""
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the server gave up waiting (the before-send timeout)

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def record(self, path, headers, body):
        key = headers.get("X-Parley-Key")
        secret = {APP_A["key"]: APP_A["secret"], APP_B["key"]: APP_B["secret"]}.get(key)
        timestamp = headers.get("X-Parley-Timestamp", "")
        expected = "v1=" + hmac.new((secret or "").encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
        fresh = timestamp.isdigit() and abs(time.time() - int(timestamp)) < 300
        with self.lock:
            if secret is None or not fresh or not hmac.compare_digest(expected, headers.get("X-Parley-Signature", "")):
                self.bad_signatures.append((path, dict(headers), body))
            self.requests.append((path, json.loads(body)))
            self.lock.notify_all()

    def answer(self, path, body):
        if path == "/before":
            return 200, self.before_send(json.loads(body))
        with self.lock:
            queued = self.fail_next.get(path) or []
            if queued:
                return queued.pop(0), {"error": "try again"}
        if path == "/events" and not self.hold.is_set():
            self.holding.set()
            self.hold.wait(30)
            self.holding.clear()
        return 200, {}

    def before_send(self, request):
        text = "".join(p.get("text", "") for p in request["message"]["parts"])
        if "[reject]" in text:
            return {"action": "reject", "reason": "no shouting in this room"}
        if "[rewrite]" in text:
            return {"action": "rewrite", "parts": [{"type": "text", "text": text.replace("[rewrite]", "(edited by the app)")}]}
        if "[slow]" in text:
            self.release_slow.wait(5)
            return {"action": "allow"}
        if "[garbage]" in text:
            return {"nothing": "useful"}
        return {"action": "allow"}

    def events(self, path="/events"):
        with self.lock:
            return [(body, event) for p, body in self.requests if p == path for event in body["events"]]

    def wait_for(self, predicate, path="/events", timeout=15):
        """The events of `path` once `predicate(events)` holds."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                events = [event for p, body in self.requests if p == path for event in body["events"]]
                if predicate(events):
                    return events
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"timed out; {path} got {json.dumps(events)[:2000]}")
                self.lock.wait(remaining)

    def close(self):
        self.hold.set()
        self.release_slow.set()
        self.server.shutdown()


class HookedChatServer(ChatServer):
    """ChatServer whose apps send their chat hooks to `endpoint`."""

    def __init__(self, endpoint, database=None, extra_args=()):
        super().__init__(database=database, extra_args=extra_args)
        apps = []
        for app, policy in ((APP_A, "allow"), (APP_B, "reject")):
            apps.append(dict(
                app, client_events=True, user_authentication=True,
                chat_webhooks=[{"url": endpoint.url("/events")}],
                before_send={"url": endpoint.url("/before"), "timeout_ms": BEFORE_SEND_TIMEOUT_MS, "on_failure": policy},
                notification_hook={"url": endpoint.url("/push"), "quiet_period_ms": 600000}))
        (self.work / "apps.json").write_text(json.dumps({"apps": apps}))


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def hooked(request):
    scoped = None
    if request.param == "postgres":
        scoped = postgres_schema_url()
        if scoped is None:
            pytest.skip("PARLEY_TEST_POSTGRES_URL is not set (scripts/test.sh starts a private PostgreSQL instance)")
    endpoint = HookEndpoint()
    server = HookedChatServer(endpoint, database=scoped[0] if scoped else None,
                              extra_args=["--metrics-token", METRICS_TOKEN]).start()
    yield server, endpoint
    server.stop()
    endpoint.close()
    if scoped:
        url, schema = scoped
        base = url.split("&options=")[0].split("?options=")[0]
        subprocess.run(["psql", base, "-qc", f"DROP SCHEMA {schema} CASCADE"], check=False, capture_output=True)
    assert not endpoint.bad_signatures, f"requests with a bad signature: {endpoint.bad_signatures[:3]}"


def make_room(server, app, *others, creator=None):
    creator = creator or unique("alice")
    for user in (creator, *others):
        create_user(server, app, user)
    room = server.ok("POST", "/v1/rooms", token=mint(app, creator), json_body={"kind": "private", "member_ids": list(others)})
    return creator, room["id"]


def send(server, app, user, room, text, expect=(201,)):
    return server.request("POST", f"/v1/rooms/{room}/messages", token=mint(app, user),
                          json_body={"parts": [{"type": "text", "text": text}]}) if expect is None else \
        server.ok("POST", f"/v1/rooms/{room}/messages", token=mint(app, user),
                  json_body={"parts": [{"type": "text", "text": text}]}, expect=expect)


def of_room(room, kind):
    return lambda event: event["type"] == kind and event["data"].get("room_id") == room


# Chat webhooks

def test_every_kind_of_chat_event_is_delivered_signed(hooked):
    server, endpoint = hooked
    bob, carol = unique("bob"), unique("carol")
    alice, room = make_room(server, APP_A, bob)
    create_user(server, APP_A, carol)
    token = mint(APP_A, alice)
    message = send(server, APP_A, alice, room, "hello")
    server.ok("PATCH", f"/v1/rooms/{room}/messages/{message['id']}", token=token,
              json_body={"parts": [{"type": "text", "text": "hello again"}]})
    server.ok("PUT", f"/v1/rooms/{room}/messages/{message['id']}/reactions/%F0%9F%91%8D", token=mint(APP_A, bob))
    server.ok("DELETE", f"/v1/rooms/{room}/messages/{message['id']}/reactions/%F0%9F%91%8D", token=mint(APP_A, bob))
    server.ok("DELETE", f"/v1/rooms/{room}/messages/{message['id']}", token=token)
    server.ok("POST", f"/v1/rooms/{room}/members", token=token, json_body={"user_id": carol})
    server.ok("DELETE", f"/v1/rooms/{room}/members/{carol}", token=token)
    server.ok("PATCH", f"/v1/rooms/{room}", token=token, json_body={"name": "renamed"})
    server.ok("DELETE", f"/v1/rooms/{room}", token=token)
    kinds = ["room.created", "message.created", "message.updated", "reaction.added", "reaction.removed",
             "message.deleted", "member.added", "member.removed", "room.updated", "room.deleted"]
    events = endpoint.wait_for(lambda events: any(of_room(room, "room.deleted")(e) for e in events))
    mine = [e for e in events if e["data"].get("room_id") == room]
    assert [e["type"] for e in mine] == kinds
    created = mine[0]["data"]
    assert sorted(created["member_ids"]) == sorted([alice, bob]) and created["room"]["id"] == room
    assert mine[1]["data"]["message"]["parts"] == [{"type": "text", "text": "hello"}]
    assert mine[3]["data"]["user_id"] == bob and mine[3]["data"]["emoji"] == "\N{THUMBS UP SIGN}"
    assert mine[6]["data"]["user_id"] == carol and mine[7]["data"]["user_id"] == carol
    assert len({e["id"] for e in mine}) == len(mine), "event ids are unique"
    assert not endpoint.bad_signatures


def test_a_flagged_message_is_delivered_once_as_user_flagged(hooked):
    server, endpoint = hooked
    bob = unique("bob")
    alice, room = make_room(server, APP_A, bob)
    message = send(server, APP_A, alice, room, "something rude")
    path = f"/v1/rooms/{room}/messages/{message['id']}/flags"
    flag = server.ok("POST", path, token=mint(APP_A, bob), json_body={"reason": "rude"}, expect=(201,))
    server.ok("POST", path, token=mint(APP_A, bob), json_body={"reason": "rude"}, expect=(200,))
    send(server, APP_A, alice, room, "after the flag")
    events = endpoint.wait_for(lambda events: sum(of_room(room, "message.created")(e) for e in events) == 2)
    flagged = [e for e in events if of_room(room, "user.flagged")(e)]
    assert len(flagged) == 1, "a repeated flag by the same member is not a new report"
    data = flagged[0]["data"]
    assert data["id"] == flag["id"] and data["message_id"] == message["id"]
    assert data["flagger_id"] == bob and data["reason"] == "rude"
    assert not endpoint.bad_signatures


def test_a_held_endpoint_neither_slows_sends_nor_loses_them_and_gets_one_batch(hooked):
    server, endpoint = hooked
    alice, room = make_room(server, APP_A)
    # Nothing else of this room is under way when the endpoint starts holding.
    endpoint.wait_for(lambda events: any(of_room(room, "room.created")(e) for e in events))
    endpoint.hold.clear()
    try:
        send(server, APP_A, alice, room, "first")
        assert endpoint.holding.wait(10), "the first delivery reached the endpoint"
        # The endpoint holds that request; sends keep being answered meanwhile.
        for i in range(4):
            send(server, APP_A, alice, room, f"queued {i}")
        assert endpoint.holding.is_set(), "every send returned while the endpoint still held its request"
    finally:
        endpoint.hold.set()
    events = endpoint.wait_for(lambda events: sum(of_room(room, "message.created")(e) for e in events) == 5)
    texts = [e["data"]["message"]["parts"][0]["text"] for e in events if of_room(room, "message.created")(e)]
    assert texts == ["first", "queued 0", "queued 1", "queued 2", "queued 3"]
    with endpoint.lock:
        batches = [[e["data"]["message"]["parts"][0]["text"] for e in body["events"] if of_room(room, "message.created")(e)]
                   for p, body in endpoint.requests if p == "/events"]
    assert ["queued 0", "queued 1", "queued 2", "queued 3"] in batches, "the events queued behind the held request went as one batch"


def test_a_failed_delivery_is_retried_with_the_same_event(hooked):
    server, endpoint = hooked
    alice, room = make_room(server, APP_A)
    endpoint.wait_for(lambda events: any(of_room(room, "room.created")(e) for e in events))
    with endpoint.lock:
        endpoint.fail_next["/events"] = [500]
    message = send(server, APP_A, alice, room, "retry me")
    endpoint.wait_for(lambda events: sum(
        of_room(room, "message.created")(e) and e["data"]["message"]["id"] == message["id"] for e in events) == 2)
    with endpoint.lock:
        deliveries = [body for p, body in endpoint.requests if p == "/events"
                      and any(e["data"].get("message", {}).get("id") == message["id"] for e in body["events"])]
    assert [d["attempt"] for d in deliveries] == [1, 2]
    first, second = ([e for e in d["events"] if e["data"].get("message", {}).get("id") == message["id"]][0] for d in deliveries)
    assert first == second, "a retry carries the same event (same id) again"


# Before-send hook

def test_before_send_allows_rejects_and_rewrites_sends_and_edits(hooked):
    server, endpoint = hooked
    alice, room = make_room(server, APP_A)
    token = mint(APP_A, alice)
    send(server, APP_A, alice, room, "plain")
    refused = send(server, APP_A, alice, room, "LOUD [reject]", expect=None)
    assert refused.status == 422 and refused.error_code == "message_rejected", refused
    assert refused.json["error"]["message"] == "no shouting in this room"
    rewritten = send(server, APP_A, alice, room, "please [rewrite] this")
    assert rewritten["parts"] == [{"type": "text", "text": "please (edited by the app) this"}]
    edit = server.request("PATCH", f"/v1/rooms/{room}/messages/{rewritten['id']}", token=token,
                          json_body={"parts": [{"type": "text", "text": "edit [reject]"}]})
    assert edit.status == 422 and edit.error_code == "message_rejected", edit
    history = server.ok("GET", f"/v1/rooms/{room}/messages", token=token)["messages"]
    assert [m["parts"][0]["text"] for m in history] == ["plain", "please (edited by the app) this"]
    with endpoint.lock:
        seen = [body for p, body in endpoint.requests if p == "/before" and body["room_id"] == room]
    assert [b["type"] for b in seen] == ["message.send"] * 3 + ["message.edit"]
    assert seen[-1]["message_id"] == rewritten["id"] and seen[0]["user_id"] == alice


def test_before_send_timeout_fails_open_or_closed_as_configured(hooked):
    server, endpoint = hooked
    alice_a, room_a = make_room(server, APP_A)
    alice_b, room_b = make_room(server, APP_B)
    endpoint.release_slow.clear()
    try:
        stored = send(server, APP_A, alice_a, room_a, "slow [slow] open")
        assert stored["parts"][0]["text"] == "slow [slow] open"
        refused = send(server, APP_B, alice_b, room_b, "slow [slow] closed", expect=None)
        assert refused.status == 503 and refused.error_code == "hook_unavailable", refused
        garbage = send(server, APP_B, alice_b, room_b, "[garbage]", expect=None)
        assert garbage.status == 503 and garbage.error_code == "hook_unavailable", garbage
    finally:
        endpoint.release_slow.set()
    assert server.ok("GET", f"/v1/rooms/{room_b}/messages", token=mint(APP_B, alice_b))["messages"] == []
    assert send(server, APP_B, alice_b, room_b, "fine")["parts"][0]["text"] == "fine"


# Notification hook

def wait_online(server, app, user):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if server.ok("GET", f"/v1/users/{user}/presence", token=mint(app, user))["online"]:
            return
        time.sleep(0.05)
    raise AssertionError(f"{user} never came online")


def test_notifications_only_for_away_members_once_per_quiet_period_following_settings(hooked):
    server, endpoint = hooked
    bob, carol, dave, erin = (unique(n) for n in ("bob", "carol", "dave", "erin"))
    alice, room = make_room(server, APP_A, bob, carol, dave, erin)
    # bob is online; dave wants nothing; erin only mentions.
    online = server.realtime(mint(APP_A, bob), sign_in=True)
    try:
        wait_online(server, APP_A, bob)
        assert server.ok("PUT", f"/v1/rooms/{room}/notifications", token=mint(APP_A, dave),
                         json_body={"level": "none"}) == {"room_id": room, "user_id": dave, "level": "none"}
        server.ok("PUT", f"/v1/rooms/{room}/notifications", token=mint(APP_A, erin), json_body={"level": "mentions"})
        assert server.ok("GET", f"/v1/rooms/{room}/notifications", token=mint(APP_A, erin))["level"] == "mentions"
        assert server.ok("GET", f"/v1/rooms/{room}/notifications", token=mint(APP_A, carol))["level"] == "all"

        first = send(server, APP_A, alice, room, "hello everyone")
        events = endpoint.wait_for(lambda events: any(of_room(room, "notification.needed")(e) for e in events), path="/push")
        notified = [e["data"] for e in events if of_room(room, "notification.needed")(e)]
        # One message's notifications are queued together: everyone it notified is here.
        assert [n["user_id"] for n in notified] == [carol]
        assert notified[0]["unread_count"] == 1 and notified[0]["unread_mentions"] == 0
        assert notified[0]["message"]["id"] == first["id"] and notified[0]["mentioned"] is False

        second = send(server, APP_A, alice, room, f"hey @{erin} and @{carol}")
        events = endpoint.wait_for(lambda events: sum(of_room(room, "notification.needed")(e) for e in events) >= 2,
                                   path="/push")
        notified = [e["data"] for e in events if of_room(room, "notification.needed")(e)]
        # carol was notified within the quiet period already; erin is mentioned now.
        assert [n["user_id"] for n in notified] == [carol, erin]
        assert notified[1]["unread_mentions"] == 1 and notified[1]["mentioned"] is True
        assert notified[1]["message"]["id"] == second["id"]
    finally:
        online.close()


def test_notification_settings_are_checked(hooked):
    server, endpoint = hooked
    alice, room = make_room(server, APP_A)
    outsider = unique("outsider")
    create_user(server, APP_A, outsider)
    bad = server.request("PUT", f"/v1/rooms/{room}/notifications", token=mint(APP_A, alice), json_body={"level": "loud"})
    assert bad.status == 400 and bad.error_code == "invalid_request", bad
    stranger = server.request("PUT", f"/v1/rooms/{room}/notifications", token=mint(APP_A, outsider), json_body={"level": "none"})
    assert stranger.status == 403 and stranger.error_code == "not_member", stranger
    app_call = server.request("GET", f"/v1/rooms/{room}/notifications", auth=basic(APP_A))
    assert app_call.status == 403 and app_call.error_code == "user_token_required", app_call


# /metrics

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


def test_metrics_count_deliveries_before_send_verdicts_and_notifications(hooked):
    server, endpoint = hooked
    bob = unique("bob")  # never connects: away, so each room notifies him
    alice, room = make_room(server, APP_A, bob)
    endpoint.wait_for(lambda events: any(of_room(room, "room.created")(e) for e in events))
    before = scrape(server)
    with endpoint.lock:
        endpoint.fail_next["/events"] = [500]
    send(server, APP_A, alice, room, "plain")
    send(server, APP_A, alice, room, "LOUD [reject]", expect=(422,))
    send(server, APP_A, alice, room, "[rewrite] me")
    send(server, APP_A, alice, room, "[garbage]")  # APP_A fails open: stored, counted as an error
    endpoint.release_slow.clear()
    try:
        send(server, APP_A, alice, room, "[slow]")  # stored after the timeout
    finally:
        endpoint.release_slow.set()
    # The retry after the 500 repeats events: count distinct ids.
    endpoint.wait_for(lambda events: len({e["id"] for e in events if of_room(room, "message.created")(e)}) == 4)
    endpoint.wait_for(lambda events: any(of_room(room, "notification.needed")(e) for e in events), path="/push")
    deadline = time.monotonic() + 15
    while True:
        after = scrape(server)
        if after["parley_chat_hook_outbox_pending"] == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.1)

    def delta(name):
        return after.get(name, 0) - before.get(name, 0)

    for verdict, count in (("allow", 1), ("reject", 1), ("rewrite", 1), ("error", 1), ("timeout", 1)):
        assert delta(f'parley_chat_before_send_calls_total{{verdict="{verdict}"}}') == count, verdict
    assert delta("parley_chat_before_send_duration_seconds_count") == 5
    assert delta('parley_chat_before_send_duration_seconds_bucket{le="+Inf"}') == 5
    # The first of the four message.created went out after one 500; one notification for bob.
    assert delta("parley_chat_hook_requests_failed_total") == 1
    assert delta("parley_chat_hook_events_sent_total") >= 5
    assert delta("parley_chat_notifications_needed_total") == 1
    assert after["parley_chat_hook_events_dropped_total"] == 0
    assert after["parley_chat_hook_outbox_pending"] == 0
