"""`parley chat`'s `/block` and `/unblock` in tmux against one `parley serve --dev`: Alice blocks
Bob, and his message shown before the block goes from her screen; what he sends while blocked
never shows on it (a later message of Carol's, sent over REST, does: the feed did not stall);
after `/unblock` his messages show again, the one sent while blocked too (history has it back)."""
from test_chat_tui import chat_command, server, tmux  # noqa: F401 (fixtures)
from test_chat_tui_moderation import rest


def test_block_hides_a_users_messages_in_tmux(server, tmux):
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms")
    rest(server, "POST", "/v1/dev/users", "alice", {"name": "carol", "id": "carol"})
    tmux.type("alice", "/create lounge")
    tmux.wait_text("alice", "parley · alice · lounge")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    tmux.type("alice", "/invite carol")
    tmux.wait_text("alice", "Invited carol")
    rooms = rest(server, "GET", "/v1/me/rooms", "alice")[1]["rooms"]
    room = next(r["room"]["id"] for r in rooms if r["room"]["name"] == "lounge")

    tmux.wait_text("bob", "lounge")
    tmux.keys("bob", "Enter")
    tmux.wait_text("bob", "parley · bob · lounge")
    tmux.type("bob", "before the block")
    tmux.wait_text("alice", "bob: before the block")

    tmux.type("alice", "/block bob")
    tmux.wait(
        "alice",
        lambda s: "Blocked bob" in s and "before the block" not in s,
        "the notice, and bob's message gone",
    )
    assert rest(server, "GET", "/v1/me/blocks", "alice")[1]["user_ids"] == ["bob"]

    tmux.type("bob", "while blocked")
    tmux.wait_text("bob", "bob: while blocked  ✓ sent")
    status, _ = rest(server, "POST", f"/v1/rooms/{room}/messages", "carol", {"parts": [{"type": "text", "text": "carol here"}]})
    assert status == 201
    screen = tmux.wait_text("alice", "carol: carol here")
    assert "while blocked" not in screen and "before the block" not in screen, screen

    tmux.type("alice", "/unblock bob")
    tmux.wait_text("alice", "Unblocked bob", "bob: before the block", "bob: while blocked")
    tmux.type("bob", "after the unblock")
    tmux.wait_text("alice", "bob: after the unblock")

    tmux.type("alice", "/quit")
    tmux.keys("bob", "C-c")
