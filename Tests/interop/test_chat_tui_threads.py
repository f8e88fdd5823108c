"""`parley chat` threads and mentions, driven through tmux against one `parley serve --dev`:
Bob opens the thread of Alice's message with `/thread 1` and replies there, Alice's room shows
the root's reply count (not the thread-only reply), Esc and `/back` return to the room, Tab
completes `@b` to a member's id, and a mention of Bob is drawn in reverse video on Bob's screen
(read through `capture-pane -e`, which keeps the attributes as escape sequences)."""
import re
import shutil

import pytest

from test_chat_tui import Tmux, chat_command, server  # noqa: F401  (server is a fixture)

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture
def tmux():
    session = Tmux(width=100, height=30)
    yield session
    session.close()


def styled_screen(tmux, who):
    return tmux.run("capture-pane", "-p", "-e", "-t", tmux.panes[who])


def styled_cells(line):
    """The characters of a `capture-pane -e` line with the SGR codes in force at each."""
    cells, codes = [], set()
    for match in re.finditer(r"\x1b\[([0-9;]*)m|\x1b[^\[]|([^\x1b])", line):
        if match.group(2) is not None:
            cells.append((match.group(2), frozenset(codes)))
            continue
        params = match.group(1)
        if params is None:
            continue
        for param in params.split(";") if params else ["0"]:
            if param in ("", "0"):
                codes = set()
            elif param in ("22", "27"):
                codes.discard({"22": "1", "27": "7"}[param])
                if param == "22":
                    codes.discard("2")
            else:
                codes.add(param)
    return cells


def codes_at(styled, line_text, text):
    """The SGR codes on the first character of `text` in the line whose plain text holds `line_text`."""
    for line in styled.splitlines():
        cells = styled_cells(line)
        plain = "".join(c for c, _ in cells)
        if line_text in plain:
            return cells[plain.index(line_text) + line_text.index(text)][1]
    raise AssertionError(f"no line holds {line_text!r}:\n{styled!r}")


def test_threads_reply_counts_and_mentions_in_tmux(server, tmux):
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms")
    tmux.type("alice", "/create general")
    tmux.wait_text("alice", "parley · alice · general")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    tmux.type("alice", "lunch today?")
    tmux.wait_text("alice", "alice: lunch today?  ✓ sent")
    tmux.wait_text("bob", "general", "(1)")
    tmux.keys("bob", "Enter")
    tmux.wait_text("bob", "parley · bob · general", "alice: lunch today?")

    # Bob opens the thread of message #1 and replies in it.
    tmux.type("bob", "/thread 1")
    tmux.wait_text("bob", "parley · bob · general › thread", "alice: lunch today?", "0 replies")
    tmux.type("bob", "pizza at noon")
    tmux.wait_text("bob", "1 reply", "bob: pizza at noon")

    # Alice's room shows the count under the root; the thread-only reply stays in the thread.
    room = tmux.wait_text("alice", "↳ 1 reply (bob) — /thread 1")
    assert "pizza at noon" not in room
    tmux.type("alice", "/thread 1")
    tmux.wait_text("alice", "› thread", "bob: pizza at noon")
    tmux.type("alice", "sounds good")
    tmux.wait_text("bob", "2 replies", "alice: sounds good")
    tmux.type("alice", "/back")
    tmux.wait(
        "alice",
        lambda s: "parley · alice · general" in s and "› thread" not in s and "↳ 2 replies (alice, bob)" in s,
        "the room again with the root's new count",
    )
    tmux.keys("bob", "Escape")
    tmux.wait(
        "bob",
        lambda s: "parley · bob · general" in s and "› thread" not in s and "↳ 2 replies" in s,
        "bob's room again",
    )

    # Alice completes @b with Tab and mentions Bob; Bob's screen shows the mention highlighted.
    tmux.type("alice", "see you @b", enter=False)
    tmux.keys("alice", "Tab")
    tmux.wait_text("alice", "> see you @bob ")
    tmux.type("alice", "there")
    tmux.wait_text("bob", "alice: see you @bob there")
    line = "alice: see you @bob there"
    styled = styled_screen(tmux, "bob")
    assert "7" in codes_at(styled, line, "@bob"), repr(styled)
    assert "7" not in codes_at(styled, line, "see you"), "the text before the mention is not highlighted"
    # On Alice's screen the mention of someone else is bold, not reversed.
    tmux.wait_text("alice", line)
    mine = styled_screen(tmux, "alice")
    codes = codes_at(mine, line, "@bob")
    assert "7" not in codes and "1" in codes, repr(mine)

    tmux.type("alice", "/quit")
    tmux.keys("bob", "C-c")
