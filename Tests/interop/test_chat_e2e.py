"""Issue 4, Must show: the chat service end to end over real HTTP (http.client) and real Pusher
WebSockets (`websockets`), with several users of one app and a second app next to it.

Every realtime subscription to a room is signed by Parley's own `/v1/channels/auth` with the
user's token, so what the tests see is what any Pusher client with that token sees."""
import io
import json
import subprocess
import time
from urllib.parse import quote

import pytest
from PIL import Image

from chat_support import APP_A, APP_B, BIN_DIR, ChatServer, basic, create_user, mint, unique


@pytest.fixture(scope="module")
def chat():
    server = ChatServer().start()
    yield server
    server.stop()


class Room:
    """A private room of APP_A with alice (admin) and bob, plus carol who is not in it."""

    def __init__(self, server):
        self.server = server
        self.alice, self.bob, self.carol = unique("alice"), unique("bob"), unique("carol")
        for user in (self.alice, self.bob, self.carol):
            create_user(server, APP_A, user)
        self.tokens = {user: mint(APP_A, user) for user in (self.alice, self.bob, self.carol)}
        room = server.ok("POST", "/v1/rooms", token=self.tokens[self.alice],
                         json_body={"kind": "private", "name": "plans", "member_ids": [self.bob]})
        self.id = room["id"]
        self.channel = f"private-room-{self.id}"

    def token(self, user):
        return self.tokens[user]

    def send(self, user, text, client_id=None, expect=(201,)):
        body = {"parts": [{"type": "text", "text": text}]}
        if client_id is not None:
            body["client_id"] = client_id
        return self.server.ok("POST", f"/v1/rooms/{self.id}/messages", token=self.token(user), json_body=body, expect=expect)

    def listen(self, user, sign_in=False):
        return self.server.realtime(self.token(user), sign_in=sign_in).join(self.channel)

    def history(self, user, **query):
        path = f"/v1/rooms/{self.id}/messages"
        if query:
            path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
        return self.server.ok("GET", path, token=self.token(user))

    def summary(self, user):
        rooms = self.server.ok("GET", "/v1/me/rooms", token=self.token(user))["rooms"]
        return next(r for r in rooms if r["room"]["id"] == self.id)


@pytest.fixture
def room(chat):
    return Room(chat)


def test_message_sent_by_one_arrives_live_at_the_other(room):
    bob = room.listen(room.bob)
    try:
        sent = room.send(room.alice, "hello bob")
        event = bob.event("message.created", room.channel)
        assert event["room_id"] == room.id and event["seq"] == sent["seq"] == 1
        assert event["message"]["id"] == sent["id"]
        assert event["message"]["sender_id"] == room.alice
        assert event["message"]["parts"] == [{"type": "text", "text": "hello bob"}]
    finally:
        bob.close()


def test_history_pages_join_without_gaps_or_duplicates(room):
    texts = [f"m{i}" for i in range(23)]
    for i, text in enumerate(texts):
        room.send(room.alice if i % 2 else room.bob, text)
    # Backwards from the newest with `before`.
    seen, before = [], None
    while True:
        page = room.history(room.bob, limit=5, **({"before": before} if before else {}))
        seqs = [m["seq"] for m in page["messages"]]
        assert seqs == sorted(seqs)
        seen = page["messages"] + seen
        if not page["has_more"]:
            break
        before = seqs[0]
    assert [m["seq"] for m in seen] == list(range(1, 24))
    assert [m["parts"][0]["text"] for m in seen] == texts
    # Forwards from a seq with `after`: the same messages, in order, once each.
    forward, after = [], 0
    while True:
        page = room.history(room.alice, limit=7, after=after)
        forward += page["messages"]
        if not page["has_more"]:
            break
        after = page["messages"][-1]["seq"]
    assert [m["id"] for m in forward] == [m["id"] for m in seen]
    # The default page is the latest 50 (all 23 here); a limit over 100 is refused.
    assert len(room.history(room.bob)["messages"]) == 23
    too_big = room.server.request("GET", f"/v1/rooms/{room.id}/messages?limit=101", token=room.token(room.bob))
    assert too_big.status in (400, 422)


def test_subscribe_then_fetch_after_last_seq_misses_nothing(room):
    for i in range(3):
        room.send(room.alice, f"before {i}")
    bob = room.listen(room.bob)
    try:
        for i in range(3):
            room.send(room.alice, f"after {i}")
        live = [bob.event("message.created", room.channel)["seq"] for _ in range(3)]
        fetched = [m["seq"] for m in room.history(room.bob, after=0)["messages"]]
        assert sorted(set(fetched) | set(live)) == list(range(1, 7))
        assert live == [4, 5, 6]
    finally:
        bob.close()


def test_retried_send_with_same_client_id_yields_one_message(room):
    bob = room.listen(room.bob)
    try:
        first = room.send(room.alice, "only once", client_id="c-42", expect=(201,))
        again = room.send(room.alice, "only once", client_id="c-42", expect=(200,))
        assert again["id"] == first["id"] and again["seq"] == first["seq"]
        assert bob.event("message.created", room.channel)["message"]["id"] == first["id"]
        assert bob.nothing("message.created")  # the retry published nothing
        assert [m["client_id"] for m in room.history(room.bob)["messages"]] == ["c-42"]
    finally:
        bob.close()


def test_edit_delete_and_reaction_events_arrive(room):
    bob = room.listen(room.bob)
    try:
        message = room.send(room.alice, "draft")
        bob.event("message.created", room.channel)
        base = f"/v1/rooms/{room.id}/messages/{message['id']}"
        alice = room.token(room.alice)

        edited = room.server.ok("PATCH", base, token=alice, json_body={"parts": [{"type": "text", "text": "final"}]})
        event = bob.event("message.updated", room.channel)
        assert event["seq"] == message["seq"] and event["message"]["parts"][0]["text"] == "final"
        assert edited["edited_at"] is not None
        # Only the author edits.
        refused = room.server.request("PATCH", base, token=room.token(room.bob), json_body={"parts": [{"type": "text", "text": "x"}]})
        assert refused.status == 403

        room.server.ok("PUT", f"{base}/reactions/{quote('👍')}", token=room.token(room.bob))
        event = bob.event("reaction.changed", room.channel)
        assert event["user_id"] == room.bob and event["emoji"] == "👍" and event["action"] == "added"
        assert event["reactions"] == [{"emoji": "👍", "count": 1}] and event["seq"] == message["seq"]
        room.server.ok("DELETE", f"{base}/reactions/{quote('👍')}", token=room.token(room.bob))
        assert bob.event("reaction.changed", room.channel)["action"] == "removed"

        room.server.ok("DELETE", base, token=alice)
        event = bob.event("message.deleted", room.channel)
        assert event["seq"] == message["seq"] and event["message"]["deleted"] is True
        # The tombstone keeps its seq in history, without content.
        [tombstone] = room.history(room.bob)["messages"]
        assert tombstone["seq"] == message["seq"] and tombstone["deleted"] and tombstone["parts"] == []
    finally:
        bob.close()


def test_read_cursor_shows_as_seen_for_the_sender(room):
    alice = room.listen(room.alice)
    try:
        sent = [room.send(room.alice, f"q{i}") for i in range(3)]
        room.server.ok("PUT", f"/v1/rooms/{room.id}/cursor", token=room.token(room.bob), json_body={"seq": sent[1]["seq"]})
        event = alice.event("cursor.updated", room.channel, where=lambda d: d["user_id"] == room.bob)
        assert event["seq"] == 2 and event["room_id"] == room.id
        cursors = room.server.ok("GET", f"/v1/rooms/{room.id}/cursors", token=room.token(room.alice))["cursors"]
        seen_by = {c["user_id"]: c["seq"] for c in cursors}
        assert seen_by[room.bob] == 2
        # A cursor never moves backwards.
        back = room.server.ok("PUT", f"/v1/rooms/{room.id}/cursor", token=room.token(room.bob), json_body={"seq": 1})
        assert back["seq"] == 2
    finally:
        alice.close()


def test_unread_counts_after_reads_and_new_messages(room):
    user_channel = f"#server-to-user-{room.bob}"
    bob = room.server.realtime(room.token(room.bob), sign_in=True)
    bob.subscribe(user_channel)
    bob.expect("pusher_internal:subscription_succeeded", user_channel)
    try:
        assert room.summary(room.bob)["unread_count"] == 0
        for i in range(4):
            room.send(room.alice, f"n{i}")
        assert room.summary(room.bob)["unread_count"] == 4
        # The sender has read what she sent.
        assert room.summary(room.alice)["unread_count"] == 0 and room.summary(room.alice)["read_seq"] == 4
        room.server.ok("PUT", f"/v1/rooms/{room.id}/cursor", token=room.token(room.bob), json_body={"seq": 3})
        assert room.summary(room.bob)["unread_count"] == 1
        read = bob.event("room.read", user_channel)
        assert read == {"room_id": room.id, "read_seq": 3, "unread_count": 1, "unread_mentions": 0}
        room.send(room.alice, "n4")
        room.send(room.alice, "n5")
        summary = room.summary(room.bob)
        assert summary["unread_count"] == 3 and summary["read_seq"] == 3
        assert summary["last_message"]["parts"][0]["text"] == "n5"
        room.server.ok("PUT", f"/v1/rooms/{room.id}/cursor", token=room.token(room.bob), json_body={"seq": 6})
        assert room.summary(room.bob)["unread_count"] == 0
        assert bob.event("room.activity", user_channel)["room_id"] == room.id
    finally:
        bob.close()


def png_bytes(width, height):
    image = Image.new("RGB", (width, height))
    for x in range(width):
        for y in range(height):
            image.putpixel((x, y), (x * 7 % 256, y * 13 % 256, (x ^ y) % 256))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_uploaded_image_comes_back_byte_identical_with_dimensions(room):
    png = png_bytes(37, 21)
    uploaded = room.server.ok("POST", f"/v1/rooms/{room.id}/attachments", token=room.token(room.alice), body=png,
                              headers={"Content-Type": "image/png"})
    assert (uploaded["width"], uploaded["height"], uploaded["size"]) == (37, 21, len(png))
    assert uploaded["content_type"] == "image/png"
    meta = room.server.ok("GET", f"/v1/attachments/{uploaded['id']}", token=room.token(room.bob))
    assert (meta["width"], meta["height"]) == (37, 21)
    download = room.server.request("GET", f"/v1/attachments/{uploaded['id']}/content", token=room.token(room.bob))
    assert download.status == 200 and download.body == png
    assert download.headers["Content-Type"] == "image/png"
    # The signed URL works without any header (image views), and not once tampered with.
    signed = room.server.request("GET", meta["download_url"])
    assert signed.status == 200 and signed.body == png
    tampered = room.server.request("GET", meta["download_url"].replace("signature=", "signature=0"))
    assert tampered.status in (401, 403)
    # A message can carry it.
    message = room.server.ok("POST", f"/v1/rooms/{room.id}/messages", token=room.token(room.alice),
                             json_body={"parts": [{"type": "attachment", "attachment_id": uploaded["id"]}]})
    assert message["parts"] == [{"type": "attachment", "attachment_id": uploaded["id"]}]


def test_typing_arrives_as_client_event_and_rest_call(room):
    alice, bob = room.listen(room.alice, sign_in=True), room.listen(room.bob)
    try:
        # A Pusher client event on the room channel goes to the others, not back to the sender,
        # stamped with the user_id the sender signed in as.
        alice.send("client-typing", {"user_id": room.alice}, channel=room.channel)
        event = bob.expect("client-typing", room.channel)
        assert event["data"] == {"user_id": room.alice} and event["user_id"] == room.alice
        assert alice.nothing("client-typing")
        # The REST call publishes `typing` with the user the server authenticated.
        room.server.ok("POST", f"/v1/rooms/{room.id}/typing", token=room.token(room.bob), json_body={})
        assert alice.event("typing", room.channel) == {"room_id": room.id, "user_id": room.bob}
        # Nobody renews it: no further typing event arrives (receivers expire it after 3 s).
        assert bob.nothing("client-typing", wait=1.0) and alice.nothing("typing", wait=0.1)
    finally:
        alice.close()
        bob.close()


def test_online_and_offline_changes_arrive(room):
    bob = room.listen(room.bob)
    try:
        presence = f"/v1/users/{room.alice}/presence"
        assert room.server.ok("GET", presence, token=room.token(room.bob))["online"] is False
        alice = room.server.realtime(room.token(room.alice), sign_in=True)
        event = bob.event("presence.changed", room.channel, where=lambda d: d["user_id"] == room.alice)
        assert event["online"] is True
        assert room.server.ok("GET", presence, token=room.token(room.bob))["online"] is True
        # A second connection of alice changes nothing; closing the last one announces offline.
        second = room.server.realtime(room.token(room.alice), sign_in=True)
        second.close()
        alice.close()
        event = bob.event("presence.changed", room.channel, where=lambda d: d["user_id"] == room.alice, timeout=10)
        assert event["online"] is False and event["last_seen_at"] is not None
        assert bob.nothing("presence.changed", wait=0.5)
        status = room.server.ok("GET", presence, token=room.token(room.bob))
        assert status["online"] is False and status["last_seen_at"] > 0
    finally:
        bob.close()


# Authorization


def test_outsider_cannot_read_subscribe_post_or_download(room):
    carol = room.token(room.carol)
    server = room.server
    room.send(room.alice, "secret plans")
    upload = server.ok("POST", f"/v1/rooms/{room.id}/attachments", token=room.token(room.alice), body=png_bytes(2, 2),
                       headers={"Content-Type": "image/png"})

    assert server.request("GET", f"/v1/rooms/{room.id}/messages", token=carol).status == 403
    assert server.request("GET", f"/v1/rooms/{room.id}", token=carol).status == 403
    posted = server.request("POST", f"/v1/rooms/{room.id}/messages", token=carol,
                            json_body={"parts": [{"type": "text", "text": "let me in"}]})
    assert posted.status == 403 and posted.error_code
    assert server.request("POST", f"/v1/rooms/{room.id}/join", token=carol).status == 403  # private: invitation only
    assert server.request("GET", f"/v1/attachments/{upload['id']}", token=carol).status == 403
    assert server.request("GET", f"/v1/attachments/{upload['id']}/content", token=carol).status == 403
    assert [m["parts"][0]["text"] for m in room.history(room.alice)["messages"]] == ["secret plans"]

    # Parley refuses to sign the room channel for her, and a self-made signature fails at the hub.
    client = server.realtime(carol)
    try:
        refused = client.channel_auth(room.channel)
        assert refused.status == 403
        client.subscribe(room.channel, {"auth": f"{APP_A['key']}:{'0' * 64}"})
        assert client.expect("pusher:subscription_error", timeout=5)["data"]["status"] == 401
        room.send(room.alice, "still secret")
        assert client.nothing("message.created", wait=0.5)
        # Nor another user's server-to-user channel.
        assert client.channel_auth(f"#server-to-user-{room.alice}").status == 403
    finally:
        client.close()


def test_token_of_one_app_is_useless_in_another(chat):
    user = unique("dana")
    create_user(chat, APP_A, user)
    create_user(chat, APP_B, user)  # the same id exists in both apps, isolated
    token_a = mint(APP_A, user)
    assert chat.request("GET", "/v1/me", token=token_a).status == 200
    for path in ["/v1/me", "/v1/me/rooms", f"/v1/users/{user}"]:
        refused = chat.request("GET", path, token=token_a, headers={"X-Parley-App": APP_B["id"]})
        assert refused.status == 401, path
    # Claiming app B in the token without B's secret is a forgery.
    claims_b = mint(APP_A, user, audience=APP_B["id"])
    assert chat.request("GET", "/v1/me", token=claims_b).status == 401
    # A room of app A does not exist for app B's credentials, and its channel can't be signed there.
    room = chat.ok("POST", "/v1/rooms", token=token_a, json_body={"kind": "private"})
    assert chat.request("GET", f"/v1/rooms/{room['id']}", auth=basic(APP_B)).status == 404
    client = chat.realtime(mint(APP_B, user), app=APP_B)
    try:
        assert client.channel_auth(f"private-room-{room['id']}").status in (403, 404)
        # App A's signature is useless on app B's socket.
        signed_a = chat.request("POST", "/v1/channels/auth", token=token_a,
                                body=f"socket_id={client.socket_id}&channel_name=private-room-{room['id']}".encode(),
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert signed_a.status == 200
        client.subscribe(f"private-room-{room['id']}", signed_a.json)
        assert client.expect("pusher:subscription_error", timeout=5)["data"]["status"] == 401
    finally:
        client.close()


def test_expired_and_forged_tokens_get_401(chat):
    user = unique("erin")
    create_user(chat, APP_A, user)
    now = int(time.time())
    bad = {
        "expired": mint(APP_A, user, now=now - 7200, ttl=600),
        "wrong secret": mint(APP_A, user, secret="not-the-secret"),
        "alg none": mint(APP_A, user, header={"alg": "none", "typ": "JWT"}).rsplit(".", 1)[0] + ".",
        "tampered": (lambda t: t[:-2] + ("A" if t[-2] != "A" else "B") + t[-1])(mint(APP_A, user)),
        "garbage": "not.a.jwt",
    }
    for name, token in bad.items():
        response = chat.request("GET", "/v1/me", token=token)
        assert response.status == 401, name
        assert response.error_code.startswith("token_"), (name, response)
        # Nor does it sign a channel.
        assert chat.request("POST", "/v1/channels/user-auth", token=token, json_body={"socket_id": "1.2"}).status == 401, name
    assert chat.request("GET", "/v1/me").status == 401


def test_parley_token_command_mints_a_working_token(chat):
    user = unique("fred")
    create_user(chat, APP_A, user)
    token = subprocess.run([str(BIN_DIR / "parley"), "token", "--config", str(chat.work / "apps.json"),
                            "--app", APP_A["id"], "--user", user, "--ttl", "60"],
                           check=True, capture_output=True, text=True).stdout.strip()
    me = chat.ok("GET", "/v1/me", token=token)
    assert me["id"] == user
    # The same command for the other app yields a token app A refuses.
    other = subprocess.run([str(BIN_DIR / "parley"), "token", "--config", str(chat.work / "apps.json"),
                            "--app", APP_B["id"], "--user", user],
                           check=True, capture_output=True, text=True).stdout.strip()
    assert chat.request("GET", "/v1/me", token=other, headers={"X-Parley-App": APP_A["id"]}).status == 401
    failed = subprocess.run([str(BIN_DIR / "parley"), "token", "--config", str(chat.work / "apps.json"), "--app", "999",
                             "--user", user], capture_output=True, text=True)
    assert failed.returncode != 0 and "999" in failed.stderr


def test_dev_mode_sign_in_by_name():
    server = ChatServer(dev=True).start()
    try:
        user = server.ok("POST", "/v1/dev/users", json_body={"name": "Grace Hopper"})
        assert user["id"] == "grace-hopper"
        token = server.ok("POST", "/v1/dev/token", json_body={"user_id": user["id"]})["token"]
        assert server.ok("GET", "/v1/me", token=token)["name"] == "Grace Hopper"
    finally:
        server.stop()
    plain = ChatServer().start()
    try:
        assert plain.request("POST", "/v1/dev/users", json_body={"name": "x"}).status == 404
    finally:
        plain.stop()
