"""`parley chat`, the full-screen terminal client, driven through tmux: two users in two
panes against one `parley serve --dev`. Alice creates a room and invites Bob, they exchange
messages, Bob sees Alice's message, Alice sees Bob typing and Bob's "seen" mark, the screen
follows a resize, and /quit, Ctrl-C, SIGTERM and a crash (SIGSEGV) all give the shell back
a sane terminal. The example token backend issues tokens that `parley chat --token-url` uses.

Assertions are on `tmux capture-pane` text. Waits poll the pane until the expected text
shows (bounded, so a failure prints the screen instead of hanging)."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import binary, free_port, start_binary

START_LINE = re.compile(r'msg="parley listening" address=http://(\S+):(\d+)')
PROMPT = "READY$"
WAIT_SECONDS = 20

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Tmux:
    """A private tmux server (its own socket) with one window split into two panes."""

    def __init__(self, width=100, height=40):
        self.socket = f"parley-chat-test-{os.getpid()}"
        self.env = {**os.environ, "PS1": PROMPT + " ", "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        shell = "bash --norc --noprofile"
        self.run("new-session", "-d", "-s", "chat", "-x", str(width), "-y", str(height), shell)
        self.run("split-window", "-v", "-t", "chat", shell)
        self.panes = {"alice": "chat.0", "bob": "chat.1"}
        for name in self.panes:
            self.type(name, f"PS1='{PROMPT} '; clear")
            self.wait(name, lambda screen: screen.strip() == PROMPT)

    def run(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True, env=self.env).stdout

    def keys(self, who, *keys):
        """Sends tmux key names (Enter, C-c, Escape…) to a pane."""
        self.run("send-keys", "-t", self.panes[who], *keys)

    def type(self, who, text, enter=True):
        """Types text literally, then Enter."""
        self.run("send-keys", "-t", self.panes[who], "-l", text)
        if enter:
            self.keys(who, "Enter")

    def screen(self, who):
        return self.run("capture-pane", "-p", "-t", self.panes[who])

    def wait(self, who, predicate, what="the expected screen"):
        """Polls the pane until `predicate(screen)` holds; fails with the screen otherwise."""
        deadline = time.monotonic() + WAIT_SECONDS
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen(who)
            if predicate(screen):
                return screen
            time.sleep(0.1)
        pytest.fail(f"{who}'s pane never showed {what}; it shows:\n{screen}")

    def wait_text(self, who, *texts):
        return self.wait(who, lambda screen: all(text in screen for text in texts), " and ".join(repr(t) for t in texts))

    def pane_child(self, who):
        """The pid of the process the pane's shell is running (the chat client)."""
        shell = int(self.run("display-message", "-p", "-t", self.panes[who], "#{pane_pid}").strip())
        children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
        return int(children[0]) if children else None

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def server():
    data = tempfile.mkdtemp(prefix="parley-tui-")
    running = start_binary("parley", ["serve", "--dev", "--port", str(free_port()), "--data-dir", data], ready=START_LINE)
    try:
        # The chat REST API must be mounted (GET /v1/openapi.json answers when it is).
        try:
            urllib.request.urlopen(running.http_url + "/v1/openapi.json", timeout=5).read()
        except urllib.error.HTTPError as error:
            pytest.skip(f"this parley serve has no chat API (/v1/openapi.json answered {error.code})")
        yield running
    finally:
        running.stop()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def tmux():
    session = Tmux()
    yield session
    session.close()


def chat_command(server, name):
    return f"{binary('parley')} chat --dev --name {name} --server {server.http_url}"


def assert_terminal_restored(tmux, who):
    """The shell prompt is back and the line discipline is cooked again (icanon, echo)."""
    tmux.wait(who, lambda screen: screen.rstrip().endswith(PROMPT) and "parley ·" not in screen, "the shell prompt")
    # The report is a line of its own, whatever the pane's width does to the command line.
    tmux.type(who, "stty -a | grep -qE -- '-(icanon|echo) ' && echo RAW-TTY || echo COOKED-TTY")
    screen = tmux.wait(who, lambda s: any(line.strip() in ("RAW-TTY", "COOKED-TTY") for line in s.splitlines()), "the stty report")
    assert "COOKED-TTY" in [line.strip() for line in screen.splitlines()], screen


def test_two_users_chat_in_tmux(server, tmux):
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms", "No rooms yet")

    # Alice creates a room and invites Bob.
    tmux.type("alice", "/create general")
    tmux.wait_text("alice", "parley · alice · general", "Created general")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    tmux.type("alice", "hello bob")
    tmux.wait(
        "alice",
        lambda s: re.search(r"^\d\d:\d\d alice: hello bob  ✓ sent", s, re.M),
        "alice's message with a time and a sent mark",
    )

    # Bob's list shows the room with an unread badge; he opens it and reads the message.
    tmux.wait_text("bob", "general", "(1)", "hello bob")
    tmux.keys("bob", "Enter")
    bob_room = tmux.wait_text("bob", "parley · bob · general", "alice: hello bob")
    assert re.search(r"─+ \d{4}-\d\d-\d\d ─+", bob_room), "a day separator above the first message"

    # Alice sees that Bob has seen it.
    tmux.wait_text("alice", "alice: hello bob  ✓ seen")

    # Bob types: the counter counts, Alice sees him typing, then his message.
    tmux.type("bob", "hi alice, nice terminal", enter=False)
    tmux.wait_text("bob", "> hi alice, nice terminal", "23/256")
    tmux.wait_text("alice", "bob is typing…")
    tmux.keys("bob", "Enter")
    tmux.wait_text("alice", "bob: hi alice, nice terminal")
    tmux.wait_text("bob", "bob: hi alice, nice terminal  ✓", "0/256")

    # Resizing the window redraws both panes at the new width.
    wide = tmux.screen("alice").splitlines()[0].rstrip()
    assert len(wide) > 70 and wide.endswith("● connected"), wide
    tmux.run("resize-window", "-t", "chat", "-x", "60", "-y", "30")
    narrow = tmux.wait(
        "alice",
        lambda s: s.splitlines()[0].rstrip().endswith("● connected") and len(s.splitlines()[0].rstrip()) <= 60,
        "a title bar redrawn at 60 columns",
    )
    assert any(line.rstrip().endswith("0/256") and len(line.rstrip()) <= 60 for line in narrow.splitlines()), narrow
    assert "alice: hello bob" in narrow

    # /quit and Ctrl-C both give the shell back with the terminal restored.
    tmux.type("alice", "/quit")
    assert_terminal_restored(tmux, "alice")
    tmux.keys("bob", "C-c")
    assert_terminal_restored(tmux, "bob")


def test_sigterm_restores_the_terminal(server, tmux):
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("bob", "parley · bob · rooms")
    pid = tmux.pane_child("bob")
    assert pid is not None
    os.kill(pid, 15)
    assert_terminal_restored(tmux, "bob")


def test_a_crash_still_restores_the_terminal(server, tmux):
    # The runtime's backtracer would take over the terminal after us; the default action is enough here.
    tmux.type("bob", f"SWIFT_BACKTRACE=enable=no {chat_command(server, 'bob')}; echo EXIT=$?")
    tmux.wait_text("bob", "parley · bob · rooms")
    pid = tmux.pane_child("bob")
    assert pid is not None
    os.kill(pid, 11)
    tmux.wait_text("bob", "EXIT=139")
    assert_terminal_restored(tmux, "bob")


def test_sign_in_errors_are_plain_text_before_the_screen_is_taken(server, tmux):
    tmux.type("alice", f"{binary('parley')} chat --dev --name alice --server http://127.0.0.1:{free_port()}; echo EXIT=$?")
    screen = tmux.wait_text("alice", "EXIT=1")
    assert "parley chat: cannot sign in" in screen
    tmux.type("alice", f"{binary('parley')} chat --dev; echo EXIT=$?")
    screen = tmux.wait_text("alice", "EXIT=2")
    assert "--name is required" in screen


BACKEND_LINE = re.compile(r"token backend listening on (\S+):(\d+)")


def test_example_backend_issues_tokens_that_parley_chat_signs_in_with(server, tmux):
    backend = start_binary("TokenBackend", ["--port", str(free_port()), "--parley", server.http_url], ready=BACKEND_LINE)
    try:
        def post(path, body):
            request = urllib.request.Request(backend.http_url + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as error:
                return error.code, json.loads(error.read())

        # The tutorials' flow: create a user by name, then get that user's token.
        status, user = post("/users", {"name": "Carol Smith"})
        assert status == 201 and user["id"] == "carol-smith" and user["name"] == "Carol Smith"
        assert post("/users", {"name": "Carol Smith"})[1]["id"] == "carol-smith"
        status, issued = post("/token", {"user_id": "carol-smith"})
        assert status == 200 and issued["user_id"] == "carol-smith" and int(issued["expires_in"]) > 0
        me = urllib.request.Request(server.http_url + "/v1/me", headers={"Authorization": "Bearer " + issued["token"]})
        with urllib.request.urlopen(me, timeout=10) as response:
            assert json.loads(response.read())["name"] == "Carol Smith"
        # Malformed requests get a clear error, not a token.
        assert post("/token", {})[0] == 422
        assert post("/users", {"name": ""})[0] == 422
        bad = urllib.request.Request(backend.http_url + "/token", data=b"not json", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bad, timeout=10)
        assert refused.value.code == 400

        # HTTPTokenProvider in parley chat asks the backend; a new user id is created on first use.
        tmux.type("alice", f"{binary('parley')} chat --token-url {backend.http_url}/token --name dave --server {server.http_url}")
        tmux.wait_text("alice", "parley · dave · rooms", "● connected")
        tmux.type("alice", "/quit")
        assert_terminal_restored(tmux, "alice")
    finally:
        backend.stop()


SGR = re.compile(r"\x1b\[([0-9;]*)m")


def marked_cells(styled_row):
    """The characters of a row (from `capture-pane -e`) drawn in reverse video and magenta:
    other users' cursors in the `/doc` editor."""
    marked, active, position = [], set(), 0
    for match in SGR.finditer(styled_row + "\x1b[0m"):
        for character in styled_row[position:match.start()]:
            if {"7", "35"} <= active:
                marked.append(character)
        position = match.end()
        for code in (match.group(1) or "0").split(";"):
            if code in ("", "0"):
                active = set()
            elif code == "27":
                active.discard("7")
            elif code == "39":
                active.discard("35")
            else:
                active.add(code)
    return marked


def document_text(screen):
    """The text of the `/doc` editor on a screen: the rows between the title bar and the line
    that says who else is editing, blank rows at the end dropped."""
    rows = screen.splitlines()
    end = next(i for i, row in enumerate(rows) if row.endswith(" editing") or row.strip() == "nobody else here")
    body = [row.rstrip() for row in rows[1:end]]
    while body and not body[-1]:
        body.pop()
    return "\n".join(body)


def test_two_users_edit_one_document_at_once_in_tmux(server, tmux):
    tmux.type("alice", chat_command(server, "alice"))
    tmux.type("bob", chat_command(server, "bob"))
    tmux.wait_text("alice", "parley · alice · rooms", "● connected")
    tmux.wait_text("bob", "parley · bob · rooms", "● connected")
    tmux.type("alice", "/create notes-room")
    tmux.wait_text("alice", "parley · alice · notes-room")
    tmux.type("alice", "/invite bob")
    tmux.wait_text("alice", "Invited bob")
    tmux.wait_text("bob", "notes-room")
    tmux.keys("bob", "Enter")
    tmux.wait_text("bob", "parley · bob · notes-room")

    # Both open the room's document "notes": an empty text, the live counter, in sync.
    tmux.type("alice", "/doc notes")
    tmux.type("bob", "/doc notes")
    for who in ("alice", "bob"):
        tmux.wait_text(who, "notes-room · notes", "0 characters", "● synced", "Esc back to the chat")
    tmux.wait_text("alice", "bob editing")
    tmux.wait_text("bob", "alice editing")

    # Alice writes a first line; Bob sees it live, counter included.
    tmux.type("alice", "shared notes", enter=False)
    tmux.keys("alice", "Enter")
    tmux.wait_text("bob", "shared notes", "13 characters")

    # Then both type at once, keystroke runs interleaved: Alice at the top (Up moves her caret
    # to the start), Bob at the end, where his caret is.
    tmux.keys("alice", "Up")
    alice_words = ["alpha ", "beta ", "gamma ", "delta "]
    bob_words = ["one ", "two ", "three ", "four"]
    for mine, theirs in zip(alice_words, bob_words):
        tmux.type("alice", mine, enter=False)
        tmux.type("bob", theirs, enter=False)
    expected = "".join(alice_words) + "shared notes\n" + "".join(bob_words)
    counter = f"{len(expected)} characters"
    screens = {who: tmux.wait_text(who, counter) for who in ("alice", "bob")}
    texts = {who: document_text(screen) for who, screen in screens.items()}
    assert texts["alice"] == texts["bob"], screens
    assert texts["alice"] == expected.rstrip(), screens["alice"]
    assert all(word.strip() in texts["bob"] for word in alice_words + bob_words)

    # Each pane marks the other's cursor: Bob's after "four" on Alice's screen, Alice's before
    # "shared" on Bob's (their carets, where each typed last).
    def cursor_marks(who):
        styled = tmux.run("capture-pane", "-p", "-e", "-t", tmux.panes[who]).splitlines()
        return [(row, marked_cells(line)) for row, line in enumerate(styled) if marked_cells(line)]

    def marks_at(who, row_text, marked):
        rows = tmux.screen(who).splitlines()
        return any(rows[row].rstrip().startswith(row_text) and cells == marked for row, cells in cursor_marks(who))

    deadline = time.monotonic() + WAIT_SECONDS
    while not (marks_at("alice", "one two", [" "]) and marks_at("bob", "alpha", ["s"])) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert marks_at("alice", "one two", [" "]), cursor_marks("alice")
    assert marks_at("bob", "alpha", ["s"]), cursor_marks("bob")

    # Esc returns to the chat; the other editor sees the user leave.
    tmux.keys("alice", "Escape")
    tmux.wait(
        "alice",
        lambda s: "parley · alice · notes-room" in s and "characters" not in s,
        "the room again",
    )
    tmux.wait_text("bob", "nobody else here")
    tmux.type("alice", "/quit")
    assert_terminal_restored(tmux, "alice")
    tmux.keys("bob", "C-c")
    assert_terminal_restored(tmux, "bob")
