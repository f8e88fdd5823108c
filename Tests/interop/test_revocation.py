"""Access ends the moment membership ends, seen by real peers: a removed member's `pysher`
subscription to `private-room-{id}` gets `parley:subscription_revoked` and nothing after it,
a signature issued before the removal no longer subscribes, a removed member's y-websocket
session (`websockets` + pycrdt) is closed with 4410 and cannot come back, a deleted room's id
is never reused, and a deleted user's token is refused and cannot recreate the user."""
import asyncio
import json
import threading
import time
from urllib.parse import quote

import pysher
import pytest
from pycrdt import Doc, Provider, Text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from chat_support import APP_A, ChatServer, basic, create_user, mint, unique

REVOKED = "parley:subscription_revoked"


@pytest.fixture(scope="module")
def chat():
    server = ChatServer().start()
    yield server
    server.stop()


def users(server, *names):
    ids = [unique(name) for name in names]
    for user in ids:
        create_user(server, APP_A, user)
    return ids


def private_room(server, admin, members, room_id=None):
    body = {"kind": "private", "member_ids": members}
    if room_id:
        body["id"] = room_id
    return server.ok("POST", "/v1/rooms", token=mint(APP_A, admin), json_body=body)["id"]


def send(server, user, room, text):
    return server.ok("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, user),
                     json_body={"parts": [{"type": "text", "text": text}]})


def channel_auth(server, token, socket_id, channel):
    form = f"socket_id={quote(socket_id)}&channel_name={quote(channel)}".encode()
    return server.request("POST", "/v1/channels/auth", token=token, body=form,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})


def decoded(data):
    """Event data as pysher hands it over: chat events carry an object, Pusher-style ones a JSON string."""
    return json.loads(data) if isinstance(data, str) else data


class Inbox:
    """Events a pysher channel received, with a wait that needs no sleeping guesses."""

    def __init__(self):
        self.items = []
        self.changed = threading.Condition()

    def add(self, item):
        with self.changed:
            self.items.append(item)
            self.changed.notify_all()

    def wait(self, predicate, timeout=10):
        with self.changed:
            assert self.changed.wait_for(lambda: predicate(self.items), timeout), self.items
            return list(self.items)


def test_removed_members_pysher_subscription_is_revoked(chat):
    alice, bob, carol = users(chat, "alice", "bob", "carol")
    room = private_room(chat, alice, [bob, carol])
    other = private_room(chat, alice, [bob])  # bob stays here: an ordering barrier on his socket
    token = mint(APP_A, bob)
    inbox, ready = Inbox(), Inbox()
    client = pysher.Pusher(APP_A["key"], secure=False, custom_host="127.0.0.1", port=chat.port)

    def on_connected(data):
        socket_id = json.loads(data)["socket_id"]
        for room_id in (room, other):
            name = f"private-room-{room_id}"
            auth = channel_auth(chat, token, socket_id, name)
            assert auth.status == 200, auth
            channel = client.subscribe(name, auth=auth.json["auth"])
            channel.bind("pusher_internal:subscription_succeeded", lambda _d, name=name: ready.add(name))
            for event in ("message.created", REVOKED):
                channel.bind(event, lambda d, event=event, name=name: inbox.add((name, event, decoded(d))))

    client.connection.bind("pusher:connection_established", on_connected)
    client.connect()
    carol_socket = chat.realtime(mint(APP_A, carol)).join(f"private-room-{room}")
    try:
        ready.wait(lambda items: len(items) == 2)
        send(chat, alice, room, "before")
        inbox.wait(lambda items: any(e[0] == f"private-room-{room}" and e[1] == "message.created" for e in items))

        assert chat.request("DELETE", f"/v1/rooms/{room}/members/{bob}", token=mint(APP_A, alice)).status == 204
        seen = inbox.wait(lambda items: any(e[1] == REVOKED for e in items))
        notice = next(e[2] for e in seen if e[1] == REVOKED)
        assert notice == {"channel": f"private-room-{room}", "reason": "member_removed"}

        send(chat, alice, room, "after")
        assert carol_socket.event("message.created", f"private-room-{room}", where=lambda d: d["message"]["parts"][0]["text"] == "after")
        send(chat, alice, other, "barrier")  # published after "after": once bob has it, "after" would have come first
        seen = inbox.wait(lambda items: any(e[0] == f"private-room-{other}" for e in items))
        texts = [e[2]["message"]["parts"][0]["text"] for e in seen if e[0] == f"private-room-{room}" and e[1] == "message.created"]
        assert texts == ["before"]
    finally:
        client.disconnect(timeout=5)
        carol_socket.close()


def test_a_signature_issued_before_removal_no_longer_subscribes(chat):
    alice, bob = users(chat, "alice", "bob")
    room = private_room(chat, alice, [bob])
    name = f"private-room-{room}"
    client = chat.realtime(mint(APP_A, bob))
    try:
        old = channel_auth(chat, client.token, client.socket_id, name)
        assert old.status == 200
        assert chat.request("DELETE", f"/v1/rooms/{room}/members/{bob}", token=mint(APP_A, alice)).status == 204
        client.subscribe(name, old.json)
        error = client.expect("pusher:subscription_error", name, timeout=5)
        assert error["data"]["status"] == 403 and error["data"]["type"] == "AuthError"
        assert channel_auth(chat, client.token, client.socket_id, name).error_code == "not_member"
    finally:
        client.close()


def test_leaving_and_room_deletion_revoke_and_the_room_id_is_retired(chat):
    alice, bob, carol = users(chat, "alice", "bob", "carol")
    room_id = unique("plans")
    private_room(chat, alice, [bob, carol], room_id=room_id)
    name = f"private-room-{room_id}"
    bob_socket = chat.realtime(mint(APP_A, bob)).join(name)
    carol_socket = chat.realtime(mint(APP_A, carol)).join(name)
    try:
        assert chat.request("POST", f"/v1/rooms/{room_id}/leave", token=mint(APP_A, bob)).status == 204
        assert bob_socket.event(REVOKED, name) == {"channel": name, "reason": "left"}
        assert chat.request("DELETE", f"/v1/rooms/{room_id}", token=mint(APP_A, alice)).status == 204
        assert carol_socket.event(REVOKED, name) == {"channel": name, "reason": "room_deleted"}
    finally:
        bob_socket.close()
        carol_socket.close()
    again = chat.request("POST", "/v1/rooms", token=mint(APP_A, alice), json_body={"id": room_id, "kind": "public"})
    assert again.status == 409 and again.error_code == "room_id_retired"
    by_app = chat.request("POST", "/v1/rooms", auth=basic(APP_A), json_body={"id": room_id, "creator_id": alice})
    assert by_app.error_code == "room_id_retired"
    assert chat.request("GET", f"/v1/rooms/{room_id}", auth=basic(APP_A)).status == 404


def doc_url(server, room, name, token):
    return f"ws://127.0.0.1:{server.port}/v1/rooms/{room}/docs/{name}/ws?token={token}"


async def close_code(ws, timeout=10):
    """Reads until the server closes; its code and reason."""
    async def drain():
        try:
            while True:
                await ws.recv()
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None, closed.rcvd.reason if closed.rcvd else None
    return await asyncio.wait_for(drain(), timeout)


def test_removed_members_ywebsocket_session_is_closed_with_4410(chat):
    alice, bob = users(chat, "alice", "bob")
    room = private_room(chat, alice, [bob])
    bob_token = mint(APP_A, bob)

    async def scenario():
        doc_a, doc_b = Doc(), Doc()
        text_a, text_b = doc_a.get("text", type=Text), doc_b.get("text", type=Text)
        async with connect(doc_url(chat, room, "notes", mint(APP_A, alice))) as ws_a, \
                connect(doc_url(chat, room, "notes", bob_token)) as ws_b:
            async with Provider(doc_a, ChannelOver(ws_a, "notes")):
                provider_b = Provider(doc_b, ChannelOver(ws_b, "notes"))
                async with provider_b:
                    text_a += "shared"
                    deadline = asyncio.get_running_loop().time() + 10
                    while str(text_b) != "shared":
                        assert asyncio.get_running_loop().time() < deadline, str(text_b)
                        await asyncio.sleep(0.05)
                    removed = await asyncio.to_thread(chat.request, "DELETE", f"/v1/rooms/{room}/members/{bob}",
                                                      token=mint(APP_A, alice))
                    assert removed.status == 204
                    # The provider is reading this socket; wait for the close it sees.
                    await asyncio.wait_for(ws_b.wait_closed(), 10)
                    code, reason = ws_b.close_code, ws_b.close_reason
        # Coming back with the same token is refused.
        async with connect(doc_url(chat, room, "notes", bob_token)) as ws:
            again = await close_code(ws)
        return code, reason, again

    code, reason, again = asyncio.run(scenario())
    assert (code, reason) == (4410, "member_removed")
    assert again[0] == 4403


class ChannelOver:
    """pycrdt's Channel protocol over a `websockets` connection; ends quietly when it closes."""

    def __init__(self, websocket, path):
        self._websocket = websocket
        self._path = path

    @property
    def path(self):
        return self._path

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.recv()
        except ConnectionClosed:
            raise StopAsyncIteration()

    async def send(self, message):
        try:
            await self._websocket.send(message)
        except ConnectionClosed:
            pass

    async def recv(self):
        while True:
            message = await self._websocket.recv()
            if isinstance(message, bytes):
                return message


def test_deleted_users_token_is_refused_and_does_not_recreate_the_user(chat):
    alice, bob = users(chat, "alice", "bob")
    room = private_room(chat, alice, [bob])
    old = mint(APP_A, bob)
    signed_in = chat.realtime(old, sign_in=True).join(f"private-room-{room}")
    try:
        assert chat.request("GET", "/v1/me", token=old).status == 200
        assert chat.request("DELETE", f"/v1/users/{bob}", auth=basic(APP_A)).status == 204
        assert signed_in.event(REVOKED, f"private-room-{room}") == {"channel": f"private-room-{room}", "reason": "user_deleted"}
        assert signed_in.expect("pusher:error", timeout=5)["data"]["code"] == 4009
    finally:
        signed_in.close()
    for method, path, body in [("GET", "/v1/me", None), ("GET", "/v1/me/rooms", None),
                               ("POST", "/v1/users", {"name": "Bob again"}), ("POST", "/v1/users", {"id": bob, "name": "Bob"})]:
        refused = chat.request(method, path, token=old, json_body=body)
        assert refused.status == 401 and refused.error_code == "token_revoked", (path, refused)
    assert chat.request("GET", f"/v1/users/{bob}", auth=basic(APP_A)).status == 404

    async def ywebsocket(token):
        async with connect(doc_url(chat, room, "notes", token)) as ws:
            return await close_code(ws)

    assert asyncio.run(ywebsocket(old)) == (4410, "token_revoked")
    # The app may create the id again: tokens issued after the deletion work, the old one never.
    create_user(chat, APP_A, bob)
    fresh = mint(APP_A, bob, now=int(time.time()) + 2)
    assert chat.request("GET", "/v1/me", token=fresh).status == 200
    assert chat.request("GET", "/v1/me", token=old).error_code == "token_revoked"
