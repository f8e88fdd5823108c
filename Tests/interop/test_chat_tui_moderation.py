"""`parley chat`'s moderation commands in tmux: a room's admin types `/slow N`, `/mute USER
[MINUTES]`, `/kick USER` and `/ban USER`, and the server's state (read back over REST) follows;
a plain member's `/slow` is refused with the server's reason on the screen."""
import json
import urllib.error
import urllib.request

from test_chat_tui import assert_terminal_restored, chat_command, server, tmux  # noqa: F401 (fixtures)


def rest(server, method, path, user, body=None):
    """A REST call as `user` (a dev token), returning (status, JSON)."""
    minted = urllib.request.Request(server.http_url + "/v1/dev/token", data=json.dumps({"user_id": user}).encode(),
                                    method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(minted, timeout=10) as response:
        token = json.loads(response.read())["token"]
    request = urllib.request.Request(server.http_url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_an_admin_moderates_from_the_terminal(server, tmux):
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms")
    tmux.type("alice", "/create lounge --public")
    tmux.wait_text("alice", "parley · alice · lounge", "Created lounge")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    rooms = rest(server, "GET", "/v1/me/rooms", "alice")[1]["rooms"]
    room = next(r["room"]["id"] for r in rooms if r["room"]["name"] == "lounge")

    # Bob, a member, may not set slow mode: the server's refusal is shown.
    tmux.wait_text("bob", "lounge")
    tmux.keys("bob", "Enter")
    tmux.wait_text("bob", "parley · bob · lounge")
    tmux.type("bob", "/slow 5")
    tmux.wait_text("bob", "Failed:", "moderator")
    assert rest(server, "GET", f"/v1/rooms/{room}/moderation", "alice")[1]["slow_mode_seconds"] == 0

    tmux.type("alice", "/slow 30")
    tmux.wait_text("alice", "Slow mode: one message per 30 s")
    assert rest(server, "GET", f"/v1/rooms/{room}/moderation", "alice")[1]["slow_mode_seconds"] == 30

    tmux.type("alice", "/mute bob 5")
    tmux.wait_text("alice", "Muted bob for 5 min")
    mutes = rest(server, "GET", f"/v1/rooms/{room}/moderation", "alice")[1]["mutes"]
    assert [m["user_id"] for m in mutes] == ["bob"] and mutes[0]["until"] is not None

    tmux.type("alice", "/kick bob")
    tmux.wait_text("alice", "Kicked bob")
    members = rest(server, "GET", f"/v1/rooms/{room}/members", "alice")[1]["members"]
    assert [m["user_id"] for m in members] == ["alice"]
    assert rest(server, "POST", f"/v1/rooms/{room}/join", "bob")[0] == 201, "a kicked member may come back"

    tmux.type("alice", "/ban bob")
    tmux.wait_text("alice", "Banned bob")
    status, refused = rest(server, "POST", f"/v1/rooms/{room}/join", "bob")
    assert status == 403 and refused["error"]["code"] == "banned"
    audit = rest(server, "GET", f"/v1/rooms/{room}/audit", "alice")[1]["entries"]
    assert [e["action"] for e in audit] == ["ban", "kick", "mute", "slow_mode"]

    tmux.type("alice", "/quit")
    assert_terminal_restored(tmux, "alice")
    tmux.keys("bob", "C-c")
    assert_terminal_restored(tmux, "bob")
