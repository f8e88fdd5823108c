"""Moderation through the REST API on both engines (docs/moderation.md): every moderation
action tried by every role (owner, admin, moderator, member, an outsider and the app) against
the documented permission table; bans and kicks that end a live `pysher` subscription at once;
an attachment deleted by a moderator, announced to a `pysher` member;
mutes, slow mode (429 + Retry-After), the audit log, flags, blocked words and user blocks."""
import json
import threading
import time
from urllib.parse import quote

import pysher
import pytest

from chat_support import APP_A, APP_B, ChatServer, basic, create_user, mint, two_engine_chat_fixture, unique

REVOKED = "parley:subscription_revoked"
APP = basic(APP_A)


def moderated_server(database=None):
    server = ChatServer(database=database)
    rules = {APP_A["id"]: {"blocked_words": ["darn"], "mode": "reject"},
             APP_B["id"]: {"blocked_words": ["darn", "heck"], "mode": "mask"}}
    config = json.loads((server.work / "apps.json").read_text())
    for app in config["apps"]:
        app["moderation"] = rules[app["id"]]
    (server.work / "apps.json").write_text(json.dumps(config))
    return server.start()


chat = two_engine_chat_fixture(moderated_server)


def users(server, *names, app=APP_A):
    ids = [unique(name) for name in names]
    for user in ids:
        create_user(server, app, user)
    return ids


def text(value):
    return {"parts": [{"type": "text", "text": value}]}


class Room:
    """A public room of APP_A made by the app: `boss` is its owner, `actor` has `role`
    (or is not a member: role None), `target` and `other` are members."""

    def __init__(self, server, role):
        self.server = server
        self.boss, self.actor, self.target, self.other = users(server, "boss", "actor", "target", "other")
        members = [self.target, self.other] + ([self.actor] if role else [])
        self.id = server.ok("POST", "/v1/rooms", auth=APP,
                            json_body={"kind": "public", "creator_id": self.boss, "member_ids": members})["id"]
        self.set_role(self.boss, "owner")
        if role and role != "member":
            self.set_role(self.actor, role)

    def set_role(self, user, role):
        self.server.ok("PATCH", f"/v1/rooms/{self.id}/members/{user}", auth=APP, json_body={"role": role})

    def call(self, method, path, caller, body=None):
        auth = APP if caller == "app" else None
        token = None if caller == "app" else mint(APP_A, caller)
        return self.server.request(method, path if path.startswith("/v1/") else f"/v1/rooms/{self.id}{path}",
                                   token=token, auth=auth, json_body=body)

    def send(self, user, value="hello"):
        return self.server.ok("POST", f"/v1/rooms/{self.id}/messages", token=mint(APP_A, user), json_body=text(value))


# What each role may do with no rank question (the target is a plain member): docs/moderation.md.
MODERATOR_UP = {"owner", "admin", "moderator", "app"}
ADMIN_UP = {"owner", "admin", "app"}
TABLE = {
    "delete_any_message": MODERATOR_UP, "mute": MODERATOR_UP, "unmute": MODERATOR_UP, "kick": MODERATOR_UP,
    "ban": MODERATOR_UP, "unban": MODERATOR_UP, "set_slow_mode": MODERATOR_UP, "read_moderation": MODERATOR_UP,
    "review_flags": MODERATOR_UP, "resolve_flag": MODERATOR_UP, "read_audit": ADMIN_UP, "change_role": ADMIN_UP,
    "flag_message": {"owner", "admin", "moderator", "member"},
}


def attempt(room, action, caller):
    """Tries `action` as `caller` in a room prepared for it; returns the response."""
    if action == "delete_any_message":
        message = room.send(room.target)
        return room.call("DELETE", f"/messages/{message['id']}", caller)
    if action in ("mute", "ban"):
        return room.call("POST", f"/{action}s", caller, {"user_id": room.target, "reason": "test"})
    if action in ("unmute", "unban"):
        kind = action[2:]
        room.call("POST", f"/{kind}s", "app", {"user_id": room.target})
        return room.call("DELETE", f"/{kind}s/{room.target}", caller)
    if action == "kick":
        return room.call("POST", "/kicks", caller, {"user_id": room.target})
    if action == "set_slow_mode":
        return room.call("PATCH", "/moderation", caller, {"slow_mode_seconds": 5})
    if action == "read_moderation":
        return room.call("GET", "/moderation", caller)
    if action == "read_audit":
        return room.call("GET", "/audit", caller)
    if action == "review_flags":
        return room.call("GET", f"/v1/flags?room_id={room.id}", caller)
    if action == "resolve_flag":
        message = room.send(room.other)
        flag = room.call("POST", f"/messages/{message['id']}/flags", room.target, {"reason": "rude"}).json
        return room.call("POST", f"/v1/flags/{flag['id']}/resolve", caller, {"resolution": "fine"})
    if action == "change_role":
        return room.call("PATCH", f"/members/{room.target}", caller, {"role": "moderator"})
    if action == "flag_message":
        message = room.send(room.other)
        return room.call("POST", f"/messages/{message['id']}/flags", caller, {"reason": "spam"})
    raise AssertionError(action)


@pytest.mark.parametrize("role", ["owner", "admin", "moderator", "member", None, "app"])
def test_every_moderation_action_by_every_role(chat, role):
    for action, allowed_roles in TABLE.items():
        room = Room(chat, role if role != "app" else None)
        caller = "app" if role == "app" else room.actor
        response = attempt(room, action, caller)
        allowed = (role or "outsider") in allowed_roles
        if allowed:
            assert response.status in (200, 201, 204), (role, action, response)
        elif role == "app":  # flagging is a member's act: the app has no user to flag as
            assert action == "flag_message" and response.error_code == "user_token_required", (action, response)
        elif role is None and action == "resolve_flag":  # outsiders learn nothing of other rooms' flags
            assert response.status == 404 and response.error_code == "flag_not_found", response
        elif role is None:
            assert response.status == 403 and response.error_code == "not_member", (action, response)
        else:
            expected = "not_room_admin" if allowed_roles == ADMIN_UP else "not_room_moderator"
            if action == "delete_any_message":
                expected = "not_author"
            assert response.status == 403 and response.error_code == expected, (role, action, response)


@pytest.mark.parametrize("actor_role,target_role,allowed", [
    ("moderator", "moderator", False), ("moderator", "admin", False), ("admin", "moderator", True),
    ("admin", "admin", False), ("admin", "owner", False), ("owner", "admin", True), ("owner", "owner", False),
])
def test_moderation_needs_a_higher_role_than_the_target(chat, actor_role, target_role, allowed):
    room = Room(chat, actor_role)
    room.set_role(room.target, target_role)
    for action in ("mute", "kick", "ban"):
        response = attempt(room, action, room.actor)
        if allowed:
            assert response.status in (201, 204), (action, response)
            room.call("DELETE", f"/bans/{room.target}", "app")
            room.call("DELETE", f"/mutes/{room.target}", "app")
            if action in ("kick", "ban"):
                chat.ok("POST", f"/v1/rooms/{room.id}/members", auth=APP, json_body={"user_id": room.target, "role": target_role})
        else:
            assert response.status == 403 and response.error_code == "target_outranks", (action, response)


def test_admins_grant_at_most_their_own_role(chat):
    room = Room(chat, "admin")
    refused = room.call("PATCH", f"/members/{room.target}", room.actor, {"role": "owner"})
    assert refused.status == 403 and refused.error_code == "target_outranks"
    refused = room.call("DELETE", f"/members/{room.boss}", room.actor)
    assert refused.status == 403 and refused.error_code == "target_outranks"
    assert room.call("PATCH", f"/members/{room.target}", room.actor, {"role": "admin"}).status == 200
    audit = room.call("GET", "/audit", room.boss).json["entries"]
    assert audit[0]["action"] == "role_changed" and audit[0]["detail"] == {"from": "member", "to": "admin"}


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


def decoded(data):
    return json.loads(data) if isinstance(data, str) else data


def pysher_member(server, user, rooms):
    """A pysher client of `user` subscribed to each room's channel, collecting message and revocation events."""
    inbox, ready = Inbox(), Inbox()
    client = pysher.Pusher(APP_A["key"], secure=False, custom_host="127.0.0.1", port=server.port)
    token = mint(APP_A, user)

    def on_connected(data):
        socket_id = json.loads(data)["socket_id"]
        for room_id in rooms:
            name = f"private-room-{room_id}"
            form = f"socket_id={quote(socket_id)}&channel_name={quote(name)}".encode()
            auth = server.request("POST", "/v1/channels/auth", token=token, body=form,
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
            assert auth.status == 200, auth
            channel = server_channel = client.subscribe(name, auth=auth.json["auth"])
            server_channel.bind("pusher_internal:subscription_succeeded", lambda _d, name=name: ready.add(name))
            for event in ("message.created", REVOKED, "member.banned", "member.kicked", "attachment.deleted"):
                channel.bind(event, lambda d, event=event, name=name: inbox.add((name, event, decoded(d))))

    client.connection.bind("pusher:connection_established", on_connected)
    client.connect()
    ready.wait(lambda items: len(items) == len(rooms))
    return client, inbox


def test_a_moderator_deletes_a_members_attachment_and_the_room_hears_of_it(chat):
    room = Room(chat, "moderator")
    uploaded = chat.request("POST", f"/v1/rooms/{room.id}/attachments?name=notes.txt", token=mint(APP_A, room.target),
                            body=b"minutes of the meeting", headers={"Content-Type": "text/plain"})
    assert uploaded.status == 201, uploaded
    attachment = uploaded.json["id"]
    client, inbox = pysher_member(chat, room.other, [room.id])
    try:
        assert room.call("DELETE", f"/v1/attachments/{attachment}", room.other).error_code == "not_author"
        assert room.call("DELETE", f"/v1/attachments/{attachment}", room.actor).status == 204
        seen = inbox.wait(lambda items: any(e[1] == "attachment.deleted" for e in items))
        events = [e for e in seen if e[1] == "attachment.deleted"]
        assert events == [(f"private-room-{room.id}", "attachment.deleted", {"room_id": room.id, "attachment_id": attachment})]
    finally:
        client.disconnect(timeout=5)
    assert room.call("GET", f"/v1/attachments/{attachment}", room.target).error_code == "attachment_not_found"
    audit = room.call("GET", "/audit", room.boss).json["entries"]
    assert any(e["action"] == "attachment_deleted" and e["actor_id"] == room.actor for e in audit)


@pytest.mark.parametrize("action,reason", [("ban", "banned"), ("kick", "kicked")])
def test_a_ban_or_kick_ends_the_live_subscription_at_once(chat, action, reason):
    room = Room(chat, "moderator")
    barrier = Room(chat, "moderator")
    chat.ok("POST", f"/v1/rooms/{barrier.id}/members", auth=APP, json_body={"user_id": room.target})
    client, inbox = pysher_member(chat, room.target, [room.id, barrier.id])
    channel = f"private-room-{room.id}"
    try:
        room.send(room.other, "before")
        inbox.wait(lambda items: any(e[0] == channel and e[1] == "message.created" for e in items))
        assert attempt(room, action, room.actor).status in (201, 204)
        seen = inbox.wait(lambda items: any(e[1] == REVOKED for e in items))
        assert next(e[2] for e in seen if e[1] == REVOKED) == {"channel": channel, "reason": reason}
        room.send(room.other, "after")
        barrier.send(barrier.other, "barrier")  # published after "after": once it arrived, "after" would have too
        seen = inbox.wait(lambda items: any(e[0] == f"private-room-{barrier.id}" for e in items))
        texts = [e[2]["message"]["parts"][0]["text"] for e in seen if e[0] == channel and e[1] == "message.created"]
        assert texts == ["before"]
    finally:
        client.disconnect(timeout=5)
    assert room.call("GET", "/messages", room.target).error_code == "not_member"
    rejoin = room.call("POST", "/join", room.target)
    if action == "kick":
        assert rejoin.status == 201, rejoin
    else:
        assert rejoin.status == 403 and rejoin.error_code == "banned", rejoin
        readd = room.call("POST", "/members", "app", {"user_id": room.target})
        assert readd.status == 403 and readd.error_code == "banned", "not even the app re-adds a banned user"
        assert room.call("DELETE", f"/bans/{room.target}", room.actor).status == 204
        assert room.call("POST", "/join", room.target).status == 201


def test_a_ban_with_an_end_lets_the_user_back_after_it(chat):
    room = Room(chat, "moderator")
    until = int(time.time() * 1000) + 1500
    banned = room.call("POST", "/bans", room.actor, {"user_id": room.target, "until": until})
    assert banned.status == 201 and banned.json["until"] == until
    assert room.call("POST", "/join", room.target).error_code == "banned"
    time.sleep(max(0, until / 1000 - time.time()) + 0.2)
    assert room.call("POST", "/join", room.target).status == 201
    assert room.call("GET", "/moderation", room.actor).json["bans"] == []


def test_a_muted_member_reads_but_cannot_send_or_edit(chat):
    room = Room(chat, "moderator")
    mine = room.send(room.target, "mine")
    watcher = chat.realtime(mint(APP_A, room.other)).join(f"private-room-{room.id}")
    try:
        assert room.call("POST", "/mutes", room.actor, {"user_id": room.target, "duration_seconds": 600}).status == 201
        muted = watcher.event("member.muted", f"private-room-{room.id}")
        assert muted["user_id"] == room.target and muted["until"] > time.time() * 1000
        refused = room.call("POST", "/messages", room.target, text("let me talk"))
        assert refused.status == 403 and refused.error_code == "muted", refused
        edit = room.call("PATCH", f"/messages/{mine['id']}", room.target, text("edited"))
        assert edit.status == 403 and edit.error_code == "muted", edit
        assert room.call("GET", "/messages", room.target).status == 200
        state = room.call("GET", "/moderation", room.actor).json
        assert [m["user_id"] for m in state["mutes"]] == [room.target]
        assert room.call("DELETE", f"/mutes/{room.target}", room.actor).status == 204
        assert watcher.event("member.unmuted", f"private-room-{room.id}")["user_id"] == room.target
        assert room.call("POST", "/messages", room.target, text("back")).status == 201
    finally:
        watcher.close()


def test_slow_mode_paces_members_but_not_moderators(chat):
    room = Room(chat, "moderator")
    watcher = chat.realtime(mint(APP_A, room.other)).join(f"private-room-{room.id}")
    try:
        assert room.call("PATCH", "/moderation", room.target, {"slow_mode_seconds": 60}).error_code == "not_room_moderator"
        bad = room.call("PATCH", "/moderation", room.actor, {"slow_mode_seconds": -1})
        assert bad.status == 422
        state = room.call("PATCH", "/moderation", room.actor, {"slow_mode_seconds": 60})
        assert state.status == 200 and state.json["slow_mode_seconds"] == 60
        assert watcher.event("room.moderation_updated", f"private-room-{room.id}")["slow_mode_seconds"] == 60
    finally:
        watcher.close()
    assert room.call("POST", "/messages", room.target, text("one")).status == 201
    refused = room.call("POST", "/messages", room.target, text("two"))
    assert refused.status == 429 and refused.error_code == "slow_mode", refused
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert room.call("POST", "/messages", room.other, text("other member")).status == 201, "each member has their own pace"
    for value in ("mod one", "mod two"):
        assert room.call("POST", "/messages", room.actor, text(value)).status == 201
    assert room.call("PATCH", "/moderation", room.actor, {"slow_mode_seconds": 0}).status == 200
    assert room.call("POST", "/messages", room.target, text("free again")).status == 201


def test_the_audit_log_records_who_did_what_and_pages(chat):
    room = Room(chat, "moderator")
    message = room.send(room.target, "bad")
    assert room.call("DELETE", f"/messages/{message['id']}", room.actor).status == 200
    room.call("POST", "/mutes", room.actor, {"user_id": room.target, "reason": "calm down"})
    room.call("DELETE", f"/mutes/{room.target}", room.actor)
    room.call("PATCH", "/moderation", room.actor, {"slow_mode_seconds": 10})
    room.call("POST", "/kicks", "app", {"user_id": room.other, "reason": "bye"})
    own = room.send(room.actor, "mine")
    room.call("DELETE", f"/messages/{own['id']}", room.actor)  # the author's own delete is no moderation
    assert room.call("GET", "/audit", room.actor).error_code == "not_room_admin"
    first = room.call("GET", "/audit?limit=3", room.boss).json
    assert [e["action"] for e in first["entries"]] == ["kick", "slow_mode", "unmute"]
    assert first["entries"][0]["actor_id"] is None and first["entries"][0]["reason"] == "bye"
    rest = room.call("GET", f"/audit?before={first['next_before']}", room.boss).json
    # Before them: the app making boss owner and actor moderator.
    assert [e["action"] for e in rest["entries"]] == ["mute", "message_deleted", "role_changed", "role_changed"]
    deleted = rest["entries"][1]
    assert deleted["actor_id"] == room.actor and deleted["target_user_id"] == room.target
    assert deleted["target_message_id"] == message["id"]
    assert rest["entries"][0]["reason"] == "calm down"


def test_flags_are_listed_for_the_app_and_room_moderators_and_resolved(chat):
    room = Room(chat, "moderator")
    message = room.send(room.other, "rude")
    flagged = room.call("POST", f"/messages/{message['id']}/flags", room.target, {"reason": "rude"})
    assert flagged.status == 201 and flagged.json["flagger_id"] == room.target
    assert room.call("POST", f"/messages/{message['id']}/flags", room.target, {"reason": "again"}).status == 200
    assert room.call("POST", "/messages/999999/flags", room.target).error_code == "message_not_found"
    seen, after = [], 0
    while True:  # the app's whole list, page by page (other tests flag too)
        page = chat.ok("GET", f"/v1/flags?state=all&limit=100&after={after}", auth=APP)
        seen += [f["id"] for f in page["flags"]]
        if page["next_after"] is None:
            break
        after = page["next_after"]
    assert flagged.json["id"] in seen
    assert chat.request("GET", "/v1/flags", token=mint(APP_A, room.actor)).error_code == "app_credentials_required"
    mine = room.call("GET", f"/v1/flags?room_id={room.id}", room.actor).json["flags"]
    assert [f["id"] for f in mine] == [flagged.json["id"]]
    outsider, = users(chat, "outsider")
    hidden = room.call("POST", f"/v1/flags/{flagged.json['id']}/resolve", outsider, {})
    assert hidden.status == 404 and hidden.error_code == "flag_not_found"
    resolved = room.call("POST", f"/v1/flags/{flagged.json['id']}/resolve", room.actor, {"resolution": "warned"}).json
    assert resolved["resolved_by"] == room.actor and resolved["resolution"] == "warned"
    assert room.call("GET", f"/v1/flags?room_id={room.id}", room.actor).json["flags"] == []
    assert room.call("GET", "/audit", room.boss).json["entries"][0]["action"] == "flag_resolved"


def test_blocked_words_are_rejected_or_masked_per_app(chat):
    room = Room(chat, "member")
    refused = room.call("POST", "/messages", room.actor, text("oh DARN it"))
    assert refused.status == 422 and refused.error_code == "blocked_word", refused
    fine = room.send(room.actor, "darning socks")
    edit = room.call("PATCH", f"/messages/{fine['id']}", room.actor, text("darn socks"))
    assert edit.error_code == "blocked_word"
    ann, ben = users(chat, "ann", "ben", app=APP_B)
    in_b = chat.ok("POST", "/v1/rooms", token=mint(APP_B, ann), json_body={"kind": "private", "member_ids": [ben]})["id"]
    sent = chat.ok("POST", f"/v1/rooms/{in_b}/messages", token=mint(APP_B, ann), json_body=text("Darn, what the heck!"))
    assert sent["parts"][0]["text"] == "****, what the ****!"


def test_a_block_stops_direct_messages_and_hides_history_for_the_blocker(chat):
    ann, ben = users(chat, "ann", "ben")
    direct = chat.ok("POST", "/v1/rooms/direct", token=mint(APP_A, ann), json_body={"user_id": ben})["id"]
    shared = Room(chat, "member")
    chat.ok("POST", f"/v1/rooms/{shared.id}/members", auth=APP, json_body={"user_id": ann})
    chat.ok("POST", f"/v1/rooms/{shared.id}/members", auth=APP, json_body={"user_id": ben})
    shared.send(ben, "from ben")
    root = shared.send(ann, "from ann")
    for user, reply in ((ben, "ben replies"), (ann, "ann replies")):
        chat.ok("POST", f"/v1/rooms/{shared.id}/messages", token=mint(APP_A, user),
                json_body={**text(reply), "parent_id": root["id"], "show_in_room": False})
    assert chat.request("PUT", f"/v1/me/blocks/{ben}", token=mint(APP_A, ann)).status == 201
    assert chat.ok("GET", "/v1/me/blocks", token=mint(APP_A, ann))["user_ids"] == [ben]
    for sender in (ann, ben):
        refused = chat.request("POST", f"/v1/rooms/{direct}/messages", token=mint(APP_A, sender), json_body=text("hi"))
        assert refused.status == 403 and refused.error_code == "user_blocked", refused
    again = chat.request("POST", "/v1/rooms/direct", token=mint(APP_A, ben), json_body={"user_id": ann})
    assert again.error_code == "user_blocked"

    def texts(user):
        page = chat.ok("GET", f"/v1/rooms/{shared.id}/messages", token=mint(APP_A, user))
        return [m["parts"][0]["text"] for m in page["messages"]]

    def replies(user):
        page = chat.ok("GET", f"/v1/rooms/{shared.id}/messages/{root['id']}/replies", token=mint(APP_A, user))
        return [m["parts"][0]["text"] for m in page["messages"]]

    assert texts(ann) == ["from ann"]
    assert texts(ben) == ["from ben", "from ann"], "only the blocker's view is filtered"
    assert replies(ann) == ["ann replies"], "a thread leaves out the blocked user's replies too"
    assert replies(ben) == ["ben replies", "ann replies"]
    assert chat.request("DELETE", f"/v1/me/blocks/{ben}", token=mint(APP_A, ann)).status == 204
    assert texts(ann) == ["from ben", "from ann"]
    assert chat.request("POST", f"/v1/rooms/{direct}/messages", token=mint(APP_A, ben), json_body=text("hi")).status == 201


def test_a_blocked_users_reactions_are_left_out_of_the_blockers_counts(chat):
    ann, ben = users(chat, "ann", "ben")
    shared = Room(chat, "member")
    for user in (ann, ben):
        chat.ok("POST", f"/v1/rooms/{shared.id}/members", auth=APP, json_body={"user_id": user})
    root = shared.send(shared.other, "a vote on pancakes")
    reply = chat.ok("POST", f"/v1/rooms/{shared.id}/messages", token=mint(APP_A, shared.other),
                    json_body={**text("pancakes reply"), "parent_id": root["id"]})
    for message in (root, reply):
        for user, emoji in ((ben, "thumbs"), (shared.other, "thumbs"), (ben, "tada")):
            chat.ok("PUT", f"/v1/rooms/{shared.id}/messages/{message['id']}/reactions/{emoji}", token=mint(APP_A, user))
    assert chat.request("PUT", f"/v1/me/blocks/{ben}", token=mint(APP_A, ann)).status == 201

    def counts(message):
        return {r["emoji"]: r["count"] for r in message["reactions"]}

    def views(user):
        token = mint(APP_A, user)
        history = chat.ok("GET", f"/v1/rooms/{shared.id}/messages", token=token)["messages"]
        single = chat.ok("GET", f"/v1/rooms/{shared.id}/messages/{root['id']}", token=token)
        thread = chat.ok("GET", f"/v1/rooms/{shared.id}/messages/{root['id']}/replies", token=token)["messages"]
        hits = chat.ok("GET", f"/v1/rooms/{shared.id}/search?q=pancakes", token=token)["results"]
        found = {hit["message"]["id"]: counts(hit["message"]) for hit in hits}
        return ([counts(m) for m in history if m["id"] == root["id"]], counts(single), [counts(m) for m in thread],
                [found.get(root["id"]), found.get(reply["id"])])

    blocker = {"thumbs": 1}
    everyone = {"thumbs": 2, "tada": 1}
    assert views(ann) == ([blocker], blocker, [blocker], [blocker, blocker]), "ben's reactions do not count for ann"
    assert views(ben) == ([everyone], everyone, [everyone], [everyone, everyone]), "only the blocker's view changes"
    assert chat.request("DELETE", f"/v1/me/blocks/{ben}", token=mint(APP_A, ann)).status == 204
    assert views(ann)[1] == everyone
