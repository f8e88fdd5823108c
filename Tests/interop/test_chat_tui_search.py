"""`/search TEXT` in `parley chat`, driven through tmux (see test_chat_tui.py): Bob finds
Alice's message in a room they share — by a word of an ideographic run and by an emoji — with
the matching words drawn bold in yellow, and never the message of a room he is not in."""
import re

from test_chat_tui import Tmux, chat_command, server, tmux  # noqa: F401 (fixtures)

HIGHLIGHT = re.compile(r"\x1b\[[0-9;]*33[0-9;]*m")


def test_search_shows_hits_with_highlights_in_tmux(server, tmux):  # noqa: F811
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms")

    tmux.type("alice", "/create hideout")
    tmux.wait_text("alice", "Created hideout")
    tmux.type("alice", "東京 secret plans")
    tmux.wait_text("alice", "alice: 東京 secret plans  ✓")
    tmux.type("alice", "/create general")
    tmux.wait_text("alice", "Created general")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    tmux.type("alice", "meet at 東京駅 at noon 🎉")
    tmux.wait_text("alice", "alice: meet at 東京駅 at noon 🎉  ✓")
    tmux.wait_text("bob", "general", "meet at")  # the room list's preview: the message is stored

    tmux.type("bob", "/search 東京")
    screen = tmux.wait_text("bob", "Search “東京”: 1 found", "general · #1 alice: meet at 東京駅 at noon 🎉")
    assert "secret plans" not in screen
    colored = tmux.run("capture-pane", "-p", "-e", "-t", tmux.panes["bob"])
    assert re.search(HIGHLIGHT.pattern + "東京", colored), colored

    tmux.keys("bob", "Escape")
    tmux.wait("bob", lambda s: "Search “" not in s, "the results closed")
    tmux.type("bob", "/search 🎉 NOON")
    tmux.wait_text("bob", "Search “🎉 NOON”: 1 found", "#1 alice: meet at")
    colored = tmux.run("capture-pane", "-p", "-e", "-t", tmux.panes["bob"])
    assert re.search(HIGHLIGHT.pattern + "noon", colored), colored

    tmux.keys("bob", "Escape")
    tmux.type("bob", "/search nowhere")
    tmux.wait_text("bob", "Search “nowhere”: no messages found")
    tmux.keys("bob", "C-c")
