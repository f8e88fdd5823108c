"""Bounds on what one user or connection can make the server do: a cap on channels per Pusher
connection, per-user rates on every chat write (429 with Retry-After), a cap on different
reactions per message, an attachment quota per app, and back-pressure on a y-websocket peer
that floods updates without reading (the server's memory stays bounded and it stays healthy)."""
import asyncio
import json
import random
import string
import threading
import time

import pysher
import pytest
from pycrdt import Doc, Provider, Text, create_update_message
from websockets.asyncio.client import connect

from chat_support import APP_A, APP_B, ChatServer, create_user, mint, unique
from test_pusher_support import RawClient

CHANNEL_CAP = 10
# One write per 1000 s after a burst of three: the fourth call is refused however slow the machine.
TIGHT = {"per_second": 0.001, "burst": 3}
LIMITS_A = {"max_channels_per_connection": CHANNEL_CAP,
            "rates": {kind: TIGHT for kind in ("reactions", "edits", "typing", "rooms", "uploads", "cursors", "memberships")}}
LIMITS_B = {"max_reactions_per_message": 5, "attachment_quota_bytes": 1000}


@pytest.fixture(scope="module")
def limited_server():
    server = ChatServer()
    apps = [dict(APP_A, client_events=True, user_authentication=True, limits=LIMITS_A),
            dict(APP_B, client_events=True, user_authentication=True, limits=LIMITS_B)]
    (server.work / "apps.json").write_text(json.dumps({"apps": apps}))
    server.start()
    yield server
    server.stop()


def room_with_message(server, app, *members):
    owner = unique("owner")
    for user in (owner, *members):
        create_user(server, app, user)
    room = server.ok("POST", "/v1/rooms", token=mint(app, owner), json_body={"kind": "private", "member_ids": list(members)})
    message = server.ok("POST", f"/v1/rooms/{room['id']}/messages", token=mint(app, owner),
                        json_body={"parts": [{"type": "text", "text": "hello"}]})
    return owner, room["id"], message["id"]


# Channels per connection

def test_a_raw_client_past_the_channel_cap_gets_a_subscription_error(limited_server):
    client = RawClient(limited_server.ws_url(APP_A))
    for i in range(CHANNEL_CAP):
        client.subscribe(f"public-{i}")
        client.expect("pusher_internal:subscription_succeeded", f"public-{i}")
    client.subscribe("one-too-many")
    refused = client.expect("pusher:subscription_error", "one-too-many")
    assert refused["data"]["status"] == 429 and refused["data"]["type"] == "LimitReached"
    assert client.expect("pusher:error")["data"]["code"] == 4303
    # The connection stays open and usable; leaving a channel makes room for another.
    client.send("pusher:ping")
    client.expect("pusher:pong")
    client.send("pusher:unsubscribe", {"channel": "public-0"})
    client.subscribe("one-too-many")
    client.expect("pusher_internal:subscription_succeeded", "one-too-many")


def test_pysher_sees_the_subscription_error_on_the_extra_channel(limited_server):
    client = pysher.Pusher(APP_A["key"], secure=False, custom_host="127.0.0.1", port=limited_server.port)
    connected, refused = threading.Event(), threading.Event()
    errors = []
    client.connection.bind("pusher:connection_established", lambda _: connected.set())
    client.connect()
    try:
        assert connected.wait(10)
        for i in range(CHANNEL_CAP):
            client.subscribe(f"pysher-{i}")
        # pysher sends the subscribe before it creates the channel a handler binds to, so on a busy
        # host the refusal can arrive before anything listens; the server refuses every attempt
        # while the connection is full, so asking again gives the handler its event.
        for _ in range(5):
            extra = client.subscribe("pysher-extra")
            extra.bind("pusher:subscription_error", lambda data: (errors.append(data), refused.set()))
            if refused.wait(3):
                break
        assert refused.is_set()
        data = json.loads(errors[0]) if isinstance(errors[0], str) else errors[0]
        assert data["status"] == 429 and data["type"] == "LimitReached"
        assert client.connection.state == "connected"
    finally:
        client.disconnect(timeout=5)


# Per-user rates

def assert_limited(responses, what):
    statuses = [r.status for r in responses]
    assert statuses[:3] == [statuses[0]] * 3 and statuses[0] < 300, f"{what}: {responses}"
    refused = responses[3]
    assert refused.status == 429 and refused.error_code == "rate_limited", f"{what}: {refused}"
    assert int(refused.headers["Retry-After"]) >= 1, f"{what}: {refused.headers}"


def test_hammering_each_write_gets_429_with_retry_after(limited_server):
    s = limited_server
    owner, room, message = room_with_message(s, APP_A)
    token = mint(APP_A, owner)
    newcomer = unique("newcomer")  # the owner already spent a room token on the room
    create_user(s, APP_A, newcomer)
    base = f"/v1/rooms/{room}"
    for other in ("x1", "x2", "x3", "x4"):
        create_user(s, APP_A, f"{room}-{other}")
    hammer = {
        "reactions": lambda i: s.request("PUT", f"{base}/messages/{message}/reactions/r{i}", token=token),
        "edits": lambda i: s.request("PATCH", f"{base}/messages/{message}", token=token,
                                     json_body={"parts": [{"type": "text", "text": f"edit {i}"}]}),
        "typing": lambda i: s.request("POST", f"{base}/typing", token=token),
        "rooms": lambda i: s.request("POST", "/v1/rooms", token=mint(APP_A, newcomer), json_body={"kind": "private"}),
        "cursors": lambda i: s.request("PUT", f"{base}/cursor", token=token, json_body={"seq": 1}),
        "memberships": lambda i: s.request("POST", f"{base}/members", token=token, json_body={"user_id": f"{room}-x{i + 1}"}),
        "uploads": lambda i: s.request("POST", f"{base}/attachments", token=token, body=b"x" * 10,
                                       headers={"Content-Type": "text/plain"}),
    }
    for kind, call in hammer.items():
        assert_limited([call(i) for i in range(4)], kind)
    # Messages have their own (default) bucket, untouched by the rest; the server is fine.
    assert s.request("POST", f"{base}/messages", token=token, json_body={"parts": [{"type": "text", "text": "still here"}]}).status == 201
    assert s.request("GET", "/healthz").status == 200


def test_the_openapi_document_describes_the_new_answers(limited_server):
    document = limited_server.ok("GET", "/v1/openapi.json")
    react = document["paths"]["/v1/rooms/{room_id}/messages/{message_id}/reactions/{emoji}"]["put"]["responses"]
    assert "429" in react and "422" in react
    upload = document["paths"]["/v1/rooms/{room_id}/attachments"]["post"]["responses"]
    assert "429" in upload and "507" in upload
    assert "Retry-After" in document["components"]["responses"]["E429"]["headers"]
    assert "too_many_reactions" in document["components"]["responses"]["E422"]["description"]


# Reactions per message, storage quota

def test_a_message_takes_only_so_many_different_reactions(limited_server):
    owner, room, message = room_with_message(limited_server, APP_B)
    path = f"/v1/rooms/{room}/messages/{message}/reactions/"
    for emoji in "abcde":
        assert limited_server.request("PUT", path + emoji, token=mint(APP_B, owner)).status == 200
    refused = limited_server.request("PUT", path + "f", token=mint(APP_B, owner))
    assert refused.status == 422 and refused.error_code == "too_many_reactions", refused


def test_attachments_stop_at_the_app_quota(limited_server):
    owner, room, _ = room_with_message(limited_server, APP_B)

    def upload(size):
        return limited_server.request("POST", f"/v1/rooms/{room}/attachments", token=mint(APP_B, owner), body=b"y" * size,
                                      headers={"Content-Type": "application/octet-stream"})

    assert upload(600).status == 201
    refused = upload(600)
    assert refused.status == 507 and refused.error_code == "storage_quota_exceeded", refused
    assert upload(400).status == 201
    assert upload(1).status == 507


# y-websocket back-pressure

def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def random_text(size, seed):
    rng = random.Random(seed)
    return "".join(rng.choices(string.ascii_letters + string.digits, k=size))


async def flood(url, message, count, seconds):
    """Sends `message` up to `count` times without reading anything; stops after `seconds`."""
    sent = 0
    websocket = await connect(url, compression=None, max_size=None)
    try:
        async def send_all():
            nonlocal sent
            for _ in range(count):
                await websocket.send(message)
                sent += 1
        try:
            await asyncio.wait_for(send_all(), seconds)
        except (asyncio.TimeoutError, Exception):
            pass
    finally:
        websocket.transport.abort()
    return sent


async def read_text(url, name):
    doc = Doc()
    text = doc.get("text", type=Text)

    class Channel:
        def __init__(self, websocket):
            self.websocket, self.path = websocket, name

        def __aiter__(self):
            return self

        async def __anext__(self):
            try:
                while True:
                    message = await self.websocket.recv()
                    if isinstance(message, bytes):
                        return message
            except Exception:
                raise StopAsyncIteration()

        async def send(self, message):
            await self.websocket.send(message)

    async with connect(url) as websocket:
        async with Provider(doc, Channel(websocket)) as provider:
            await asyncio.wait_for(provider.synced.wait(), 30)
            deadline = asyncio.get_running_loop().time() + 30
            while not str(text) and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)
            return str(text)


def test_a_ywebsocket_update_flood_leaves_memory_bounded():
    server = ChatServer().start()
    try:
        alice = unique("alice")
        create_user(server, APP_A, alice)
        room = server.ok("POST", "/v1/rooms", token=mint(APP_A, alice), json_body={"kind": "private"})["id"]
        url = f"ws://127.0.0.1:{server.port}/v1/rooms/{room}/docs/flood/ws?token={mint(APP_A, alice)}"
        # One big update, sent over and over: valid every time (a duplicate changes nothing, so
        # the document stays small), and incompressible.
        source = Doc()
        source.get("text", type=Text).insert(0, random_text(700_000, seed=7))
        message = create_update_message(source.get_update())
        count = 400  # 280 MB in all
        pid = server.process.pid
        baseline = rss_bytes(pid)
        peak = baseline
        stop = threading.Event()

        def sample():
            nonlocal peak
            while not stop.is_set():
                peak = max(peak, rss_bytes(pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            sent = asyncio.run(flood(url, message, count, seconds=20))
            # Healthy afterwards: answers, and a new client gets the document's text.
            assert server.request("GET", "/healthz").status == 200
            assert asyncio.run(read_text(url, "flood")) == str(source.get("text", type=Text))
        finally:
            stop.set()
            sampler.join()
        after = rss_bytes(pid)
        mib = 1 << 20
        print(f"flood: {sent} of {count} messages of {len(message)} bytes sent; RSS baseline {baseline / mib:.0f} MiB, "
              f"peak {peak / mib:.0f} MiB, after {after / mib:.0f} MiB")
        assert sent > 0
        assert peak - baseline < 100 * mib, f"RSS grew by {(peak - baseline) / mib:.0f} MiB during the flood"
        assert after - baseline < 100 * mib
    finally:
        server.stop()
