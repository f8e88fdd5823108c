"""Threads, quotes and mentions through the REST API on both engines, with the realtime events
seen by real clients: a `pysher` subscription to the room channel receives a reply's
`message.created` and the root's `thread.updated`; a signed-in Pusher connection on
`#server-to-user-{id}` receives `message.mentioned`."""
import json
import threading
from urllib.parse import quote

import pysher
import pytest

from chat_support import APP_A, create_user, mint, two_engine_chat_fixture, unique


chat = two_engine_chat_fixture()


class Room:
    """A private room of APP_A: alice (admin), bob and carol; dave is not in it."""

    def __init__(self, server):
        self.server = server
        self.alice, self.bob, self.carol, self.dave = (unique(n) for n in ("alice", "bob", "carol", "dave"))
        for user in (self.alice, self.bob, self.carol, self.dave):
            create_user(server, APP_A, user)
        room = server.ok("POST", "/v1/rooms", token=mint(APP_A, self.alice),
                         json_body={"kind": "private", "member_ids": [self.bob, self.carol]})
        self.id = room["id"]
        self.channel = f"private-room-{self.id}"

    def send(self, user, text, expect=(201,), **fields):
        body = {"parts": [{"type": "text", "text": text}], **fields}
        return self.server.request("POST", f"/v1/rooms/{self.id}/messages", token=mint(APP_A, user), json_body=body) \
            if expect is None else \
            self.server.ok("POST", f"/v1/rooms/{self.id}/messages", token=mint(APP_A, user), json_body=body, expect=expect)

    def get(self, user, path):
        return self.server.ok("GET", f"/v1/rooms/{self.id}{path}", token=mint(APP_A, user))

    def summary(self, user):
        rooms = self.server.ok("GET", "/v1/me/rooms", token=mint(APP_A, user))["rooms"]
        return next(r for r in rooms if r["room"]["id"] == self.id)


@pytest.fixture
def room(chat):
    return Room(chat)


def decoded(data):
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


def pysher_listener(room, user, events):
    """A pysher client subscribed to the room's channel, collecting `events` into an inbox."""
    inbox, ready = Inbox(), Inbox()
    client = pysher.Pusher(APP_A["key"], secure=False, custom_host="127.0.0.1", port=room.server.port)
    token = mint(APP_A, user)

    def on_connected(data):
        socket_id = json.loads(data)["socket_id"]
        form = f"socket_id={quote(socket_id)}&channel_name={quote(room.channel)}".encode()
        auth = room.server.request("POST", "/v1/channels/auth", token=token, body=form,
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        channel = client.subscribe(room.channel, auth=auth.json["auth"])
        channel.bind("pusher_internal:subscription_succeeded", lambda _d: ready.add(True))
        for event in events:
            channel.bind(event, lambda d, event=event: inbox.add((event, decoded(d))))

    client.connection.bind("pusher:connection_established", on_connected)
    client.connect()
    ready.wait(lambda items: items)
    return client, inbox


def test_thread_replies_page_apart_from_history_and_announce_the_root(room):
    client, inbox = pysher_listener(room, room.bob, ["message.created", "thread.updated"])
    try:
        root = room.send(room.alice, "what shall we eat?")
        first = room.send(room.bob, "pizza", parent_id=root["id"])
        assert first["parent_id"] == root["id"] and first["show_in_room"] is False
        seen = inbox.wait(lambda items: any(e[0] == "thread.updated" for e in items))
        created = [e[1] for e in seen if e[0] == "message.created"]
        assert [c["message"]["id"] for c in created] == [root["id"], first["id"]]
        assert created[1]["message"]["parent_id"] == root["id"]
        update = next(e[1] for e in seen if e[0] == "thread.updated")
        assert update == {"room_id": room.id, "message_id": root["id"], "reply_count": 1, "last_replier_ids": [room.bob],
                          "reply_id": first["id"], "reply_seq": first["seq"]}

        nested = room.send(room.carol, "sushi", parent_id=first["id"], show_in_room=True)
        assert nested["parent_id"] == root["id"], "a reply to a reply joins the root's thread"
        inbox.wait(lambda items: sum(e[0] == "thread.updated" for e in items) == 2)
        assert inbox.items[-1][1]["reply_count"] == 2 and inbox.items[-1][1]["last_replier_ids"] == [room.carol, room.bob]

        stored_root = room.get(room.bob, f"/messages/{root['id']}")
        assert stored_root["reply_count"] == 2 and stored_root["last_replier_ids"] == [room.carol, room.bob]
        history = room.get(room.bob, "/messages")["messages"]
        assert [m["id"] for m in history] == [root["id"], nested["id"]], "the thread-only reply stays out of history"
        page = room.get(room.bob, f"/messages/{root['id']}/replies?limit=1")
        assert [m["id"] for m in page["messages"]] == [nested["id"]] and page["has_more"] is True
        older = room.get(room.bob, f"/messages/{root['id']}/replies?before={nested['seq']}")
        assert [m["id"] for m in older["messages"]] == [first["id"]] and older["has_more"] is False
        # The thread-only reply is not unread in the room; the one also shown in it is.
        assert room.summary(room.alice)["unread_count"] == 1
    finally:
        client.disconnect(timeout=5)


def test_bad_thread_and_quote_references_get_their_codes(room):
    root = room.send(room.alice, "root")
    assert room.send(room.bob, "x", expect=None, parent_id=987654321).error_code == "parent_not_found"
    assert room.send(room.bob, "x", expect=None, quoted_message_id=987654321).error_code == "quoted_message_not_found"
    assert room.send(room.bob, "x", expect=None, show_in_room=True).error_code == "validation_failed"
    assert room.send(room.bob, "x", expect=None, parent_id="seven").error_code == "invalid_request"
    room.server.ok("DELETE", f"/v1/rooms/{room.id}/messages/{root['id']}", token=mint(APP_A, room.alice))
    refused = room.send(room.bob, "x", expect=None, parent_id=root["id"])
    assert refused.status == 422 and refused.error_code == "parent_deleted"
    assert room.send(room.bob, "x", expect=None, quoted_message_id=root["id"]).error_code == "quoted_message_deleted"
    missing = room.server.request("GET", f"/v1/rooms/{room.id}/messages/987654321/replies", token=mint(APP_A, room.bob))
    assert missing.status == 404 and missing.error_code == "message_not_found"
    outsider = room.server.request("GET", f"/v1/rooms/{room.id}/messages/{root['id']}/replies", token=mint(APP_A, room.dave))
    assert outsider.status == 403


def test_a_quote_keeps_the_sent_text_and_reads_deleted_later(room):
    original = room.send(room.alice, "the plan is A")
    quoting = room.send(room.bob, "agreed", quoted_message_id=original["id"])
    assert quoting["quoted_message"] == {"id": original["id"], "sender_id": room.alice,
                                         "parts": [{"type": "text", "text": "the plan is A"}], "deleted": False}
    room.server.ok("PATCH", f"/v1/rooms/{room.id}/messages/{original['id']}", token=mint(APP_A, room.alice),
                   json_body={"parts": [{"type": "text", "text": "the plan is B"}]})
    assert room.get(room.carol, f"/messages/{quoting['id']}")["quoted_message"]["parts"][0]["text"] == "the plan is A"
    room.server.ok("DELETE", f"/v1/rooms/{room.id}/messages/{original['id']}", token=mint(APP_A, room.alice))
    quote_now = next(m for m in room.get(room.carol, "/messages")["messages"] if m["id"] == quoting["id"])["quoted_message"]
    assert quote_now == {"id": original["id"], "sender_id": room.alice, "parts": [], "deleted": True}


def test_mentions_notify_members_and_count_until_read(room):
    bob = room.server.realtime(mint(APP_A, room.bob), sign_in=True)
    user_channel = f"#server-to-user-{room.bob}"
    bob.subscribe(user_channel)
    bob.expect("pusher_internal:subscription_succeeded", user_channel)
    try:
        sent = room.send(room.alice, f"@{room.bob}, see this (cc @{room.dave} and mail x@{room.carol})")
        assert sent["mentions"] == [room.bob], "only members are mentioned; an address is not a mention"
        event = bob.event("message.mentioned", user_channel)
        assert event["room_id"] == room.id and event["message"]["id"] == sent["id"] and event["seq"] == sent["seq"]
        room.send(room.carol, f"again @{room.bob}")
        room.send(room.carol, "no mention")
        summary = room.summary(room.bob)
        assert summary["unread_mentions"] == 2 and summary["unread_count"] == 3
        assert room.summary(room.carol)["unread_mentions"] == 0
        room.server.ok("PUT", f"/v1/rooms/{room.id}/cursor", token=mint(APP_A, room.bob), json_body={"seq": sent["seq"]})
        read = bob.event("room.read", user_channel)
        assert read["unread_mentions"] == 1 and read["unread_count"] == 2
        assert room.get(room.bob, f"/messages/{sent['id']}")["mentions"] == [room.bob]
    finally:
        bob.close()
