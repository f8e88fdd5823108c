"""`parley chat` message search, driven through tmux against one `parley serve --dev`: Alice
and Bob share `general`, each also has a room of their own. Bob's `/search lunch` lists the
messages of his rooms (room, sender, text) with "lunch" drawn in reverse video (read through
`capture-pane -e`, which keeps the attributes as escape sequences) and never Alice's own
room's message; `/search --here` keeps to the open room; Esc and `/search` alone close the
results and show the view the search began in. Down selects a result (`▸` in its gutter) and
Enter opens its room at the message, marked, 70 messages back from the newest (history is read
back page by page until it is loaded)."""
import re
import shutil
import time

import pytest

from test_chat_tui import Tmux, chat_command, server  # noqa: F401  (server is a fixture)
from test_chat_tui_moderation import rest
from test_chat_tui_threads import codes_at, styled_screen

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def post(server, user, room, text):
    """Sends a message over REST as `user`, waiting out the send rate limit when it answers 429."""
    for _ in range(100):
        status, body = rest(server, "POST", f"/v1/rooms/{room}/messages", user, {"parts": [{"type": "text", "text": text}]})
        if status != 429:
            assert status == 201, body
            return body
        time.sleep(0.2)
    raise AssertionError(f"{user} could not send {text!r}: still rate limited")


@pytest.fixture
def tmux():
    session = Tmux(width=100, height=30)
    yield session
    session.close()


def test_search_finds_my_rooms_messages_highlighted_in_tmux(server, tmux):
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms", "● connected")

    # general: Alice and Bob.
    tmux.type("alice", "/create general")
    tmux.wait_text("alice", "parley · alice · general")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    tmux.type("alice", "lunch at noon?")
    tmux.wait_text("alice", "alice: lunch at noon?  ✓ sent")
    # 70 later messages: more than the first history page the room shows when opened.
    rooms = rest(server, "GET", "/v1/me/rooms", "alice")[1]["rooms"]
    general = next(r["room"]["id"] for r in rooms if r["room"]["name"] == "general")
    for number in range(1, 71):
        post(server, "alice", general, f"filler {number}")
    # notes: Alice alone; Bob must never see this one.
    tmux.type("alice", "/create notes")
    tmux.wait_text("alice", "parley · alice · notes")
    tmux.type("alice", "lunch budget is secret")
    tmux.wait_text("alice", "alice: lunch budget is secret  ✓ sent")
    # kitchen: Bob alone.
    tmux.wait_text("bob", "general")
    tmux.type("bob", "/create kitchen")
    tmux.wait_text("bob", "parley · bob · kitchen")
    tmux.type("bob", "Lunch leftovers in the fridge")
    tmux.wait_text("bob", "bob: Lunch leftovers in the fridge  ✓ sent")

    # Bob searches all his rooms: general and kitchen, not Alice's notes.
    tmux.type("bob", "/search lunch")
    shown = tmux.wait_text("bob", "parley · bob · search", "2 results for “lunch”")
    assert re.search(r"#general \d{4}-\d\d-\d\d \d\d:\d\d alice: lunch at noon\?", shown), shown
    assert re.search(r"#kitchen \d{4}-\d\d-\d\d \d\d:\d\d bob: Lunch leftovers in the fridge", shown), shown
    assert "budget" not in shown and "secret" not in shown, shown
    styled = styled_screen(tmux, "bob")
    assert "7" in codes_at(styled, "alice: lunch at noon?", "lunch"), repr(styled)
    assert "7" not in codes_at(styled, "alice: lunch at noon?", "at noon"), "only the matched word is highlighted"
    assert "7" in codes_at(styled, "bob: Lunch leftovers", "Lunch"), repr(styled)
    assert "7" not in codes_at(styled, "bob: Lunch leftovers", "leftovers")

    # Esc closes the results: Bob is back in kitchen, where he searched from.
    tmux.keys("bob", "Escape")
    tmux.wait(
        "bob", lambda s: "parley · bob · kitchen" in s and "results for" not in s, "bob's room again after Esc"
    )

    # --here keeps to the open room.
    tmux.type("bob", "/search --here lunch")
    here = tmux.wait_text("bob", "parley · bob · search in kitchen", "1 result for “lunch”")
    assert "bob: Lunch leftovers in the fridge" in here and "alice: lunch at noon?" not in here, here
    tmux.type("bob", "/search")
    tmux.wait(
        "bob", lambda s: "parley · bob · kitchen" in s and "search" not in s.splitlines()[0], "bob's room after /search"
    )

    # Down selects a result; Enter on general's opens general at that message, marked.
    tmux.type("bob", "/search lunch")
    shown = tmux.wait_text("bob", "2 results for “lunch”", "none selected: more")
    assert "▸" not in shown, shown
    for _ in range(2):
        tmux.keys("bob", "Down")
        shown = tmux.wait_text("bob", "▸ #")
        if "▸ #general" in shown:
            break
    assert re.search(r"^▸ #general .* alice: lunch at noon\?", shown, re.M), shown
    tmux.keys("bob", "Enter")
    room = tmux.wait(
        "bob",
        lambda s: "parley · bob · general" in s and re.search(r"^▸ \d\d:\d\d alice: lunch at noon\?", s, re.M),
        "general at alice's lunch message, marked",
    )
    assert "filler 70" not in room, "the screen shows the message, not the newest"
    assert "7" in codes_at(styled_screen(tmux, "bob"), "alice: lunch at noon?", "alice"), "the marked sender is reversed"
    assert "7" not in codes_at(styled_screen(tmux, "bob"), "alice: filler", "alice"), "only that message is marked"

    # Alice finds her own room's message; words that only Bob wrote find nothing for her.
    tmux.type("alice", "/search budget")
    mine = tmux.wait_text("alice", "1 result for “budget”")
    assert "#notes" in mine and "alice: lunch budget is secret" in mine, mine
    assert "7" in codes_at(styled_screen(tmux, "alice"), "alice: lunch budget is secret", "budget")
    tmux.type("alice", "/search leftovers")
    tmux.wait_text("alice", "No messages match “leftovers”")

    tmux.type("alice", "/quit")
    tmux.keys("bob", "C-c")
