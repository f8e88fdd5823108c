"""Issue 5, Must show: ParleyKit against a real `parley serve --dev` on loopback, each client a
separate `ParleyKitPeer` process (a ParleyClient driven by stdin lines, reporting JSON lines).

- The server is SIGKILLed in the middle of a conversation between alice and bob and started
  again on the same port and data directory: every message sent (acknowledged, in flight, or
  waiting in the outbox) appears exactly once, in seq order, in both clients' feeds and in
  the history.
- A message sent while the server is down waits in the outbox and is delivered once after
  the server returns, with the client id it was given.
- The outbox survives SIGKILL of the client process: a fresh process over the same outbox
  file delivers what the dead one queued, exactly once.
- Events missed while a client's network was down are filled from history after it
  reconnects, without doubling the live events that arrive meanwhile.

Every wait polls a condition under a generous deadline; no duration is asserted."""
import http.client
import json
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import binary

LISTENING = "msg=\"parley listening\" address=http://"
DEADLINE = 60


class DevServer:
    """`parley serve --dev` over one data directory; killed and started again on the same port."""

    def __init__(self, work):
        self.work = Path(work)
        self.process = None
        self.port = 0
        self.starts = 0

    def start(self):
        self.starts += 1
        log = self.work / f"server-{self.starts}.log"
        with open(log, "w") as out:
            self.process = subprocess.Popen(
                [str(binary("parley")), "serve", "--dev", "--port", str(self.port), "--data-dir", str(self.work / "data")],
                stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            text = log.read_text()
            at = text.find(LISTENING)
            if at >= 0:
                address = text[at + len(LISTENING):].split()[0]
                self.port = int(address.rsplit(":", 1)[1])
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.process.kill()
        pytest.fail("parley serve did not start:\n" + log.read_text())

    def kill(self):
        """SIGKILL: a crash, no shutdown work at all."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def request(self, method, path, token=None, body=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = connection.getresponse()
            data = response.read()
            assert 200 <= response.status < 300, f"{method} {path}: {response.status} {data[:300]!r}"
            return json.loads(data) if data else None
        finally:
            connection.close()

    def sign_up(self, name):
        """Creates the user in dev mode and returns a token for it."""
        self.request("POST", "/v1/dev/users", body={"name": name, "id": name})
        return self.request("POST", "/v1/dev/token", body={"user_id": name})["token"]

    def history(self, room, token):
        messages, after = [], 0
        while True:
            page = self.request("GET", f"/v1/rooms/{room}/messages?after={after}&limit=100", token=token)
            messages += page["messages"]
            if not page["has_more"] or not page["messages"]:
                return messages
            after = page["messages"][-1]["seq"]


class Peer:
    """A `ParleyKitPeer` process: commands go to its stdin, its JSON-line reports are collected."""

    def __init__(self, name, server, token, store, extra_args=()):
        self.name = name
        self.stderr = open(Path(store).with_suffix(".stderr"), "w")
        self.process = subprocess.Popen(
            [str(binary("ParleyKitPeer")), "--server", server.url, "--token", token, "--store", str(store),
             "--initial-delay-ms", "100", "--max-delay-ms", "1000", *extra_args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1)
        self.reports = []
        self.replies = queue.Queue()
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.wait(lambda reports: any(r["event"] == "ready" for r in reports), "ready")

    def _read(self):
        for line in self.process.stdout:
            try:
                report = json.loads(line)
            except ValueError:
                report = {"event": "unparsed", "line": line}
            with self.changed:
                self.reports.append(report)
                self.changed.notify_all()
            if report["event"] in ("done", "error"):
                self.replies.put(report)
        with self.changed:
            self.changed.notify_all()

    def command(self, line):
        """Sends one command and returns its `done` reply (commands are answered in order)."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        try:
            reply = self.replies.get(timeout=DEADLINE)
        except queue.Empty:
            pytest.fail(f"{self.name}: no answer to {line!r}; last reports: {self.reports[-10:]}")
        assert reply["event"] == "done", f"{self.name}: {line!r} failed: {reply}"
        return reply

    def wait(self, condition, what):
        """Waits until `condition(reports)` holds (deadline: a failure, never a measurement)."""
        deadline = time.monotonic() + DEADLINE
        with self.changed:
            while not condition(self.reports):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.process.poll() is not None and not self.reader.is_alive()):
                    pytest.fail(f"{self.name}: gave up waiting for {what}; last reports: {self.reports[-15:]}")
                self.changed.wait(timeout=min(remaining, 1))

    def wait_outbox_empty(self):
        """Polls the outbox (a command, so not under the report lock) until it is empty."""
        deadline = time.monotonic() + DEADLINE
        while (entries := self.command("outbox")["entries"]) != []:
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name}: the outbox never emptied: {entries}")
            time.sleep(0.1)

    def feed(self, room):
        """The room's messages in the order the app was given them."""
        with self.changed:
            return [r for r in self.reports if r["event"] == "message" and r["room"] == room]

    def wait_for_messages(self, room, client_ids):
        wanted = set(client_ids)
        self.wait(lambda _: wanted <= {m["client_id"] for m in self.feed(room)},
                  f"{len(wanted)} messages in {room}")

    def online_count(self):
        with self.changed:
            return sum(1 for r in self.reports if r["event"] == "state" and r["state"] == "online")

    def wait_online(self, times=1):
        self.wait(lambda _: self.online_count() >= times, f"being online (#{times})")

    def send(self, room, text):
        return self.command(f"send {room} {text}")["client_id"]

    def kill(self):
        self.process.kill()
        self.process.wait()

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.stderr.close()


@pytest.fixture
def world():
    """A dev server with users alice and bob and a room they share; peers started on demand."""
    work = tempfile.mkdtemp(prefix="parleykit-")
    server = DevServer(work).start()
    tokens = {name: server.sign_up(name) for name in ("alice", "bob")}
    room = server.request("POST", "/v1/rooms", token=tokens["alice"],
                          body={"name": "reliability", "kind": "private", "member_ids": ["bob"]})["id"]
    peers = []

    def peer(name, store=None):
        started = Peer(name, server, tokens[name], store or Path(work) / f"{name}.sqlite")
        peers.append(started)
        return started

    yield server, tokens, room, peer, Path(work)
    for started in peers:
        started.close()
    server.stop()
    shutil.rmtree(work, ignore_errors=True)


def watching(peer, room, times=1):
    """Connects a peer and watches the room from its first message."""
    peer.command("connect")
    peer.command(f"watch {room} 0")
    peer.wait_online(times)
    return peer


def assert_exactly_once_in_order(feed, client_ids, who):
    """The feed holds each client id once, seqs run 1, 2, 3… without gaps or repeats."""
    seen = [m["client_id"] for m in feed]
    assert len(seen) == len(set(seen)), f"{who}: a message was delivered twice: {seen}"
    assert set(seen) == set(client_ids), f"{who}: missing {set(client_ids) - set(seen)}, extra {set(seen) - set(client_ids)}"
    assert [m["seq"] for m in feed] == list(range(1, len(feed) + 1)), f"{who}: not in seq order: {[m['seq'] for m in feed]}"


def assert_sender_order(feed, sent_by_sender):
    """Each sender's messages keep the order they were sent in (the outbox is FIFO)."""
    for sender, client_ids in sent_by_sender.items():
        assert [m["client_id"] for m in feed if m["sender"] == sender] == client_ids, f"{sender}'s messages out of order"


def text_of(message):
    """The text of a peer report, or of a server message's text parts."""
    if "text" in message:
        return message["text"]
    return "\n".join(p["text"] for p in message["parts"] if p["type"] == "text")


def as_pairs(messages):
    return [(m["seq"], m["client_id"], text_of(m)) for m in messages]


def test_server_restart_mid_conversation_loses_and_doubles_nothing(world):
    server, tokens, room, peer, _ = world
    alice, bob = watching(peer("alice"), room), watching(peer("bob"), room)
    sent = {"alice": [], "bob": []}

    def say(who, client, text):
        sent[who].append(client.send(room, text))

    for i in range(5):
        say("alice", alice, f"a-before-{i}")
        say("bob", bob, f"b-before-{i}")
    everything = sent["alice"] + sent["bob"]
    alice.wait_for_messages(room, everything)
    bob.wait_for_messages(room, everything)

    for crash in range(2):
        # A burst, and the crash while it is in flight: some acknowledged, some mid-request, some queued.
        for i in range(8):
            say("alice", alice, f"a-burst{crash}-{i}")
            say("bob", bob, f"b-burst{crash}-{i}")
        server.kill()
        # While the server is down both keep talking: only the outbox has these.
        for i in range(4):
            say("alice", alice, f"a-down{crash}-{i}")
            say("bob", bob, f"b-down{crash}-{i}")
        assert len(alice.command("outbox")["entries"]) >= 4
        assert len(bob.command("outbox")["entries"]) >= 4

        server.start()
        alice.wait_online(crash + 2)
        bob.wait_online(crash + 2)
        for i in range(3):
            say("alice", alice, f"a-after{crash}-{i}")
            say("bob", bob, f"b-after{crash}-{i}")

    everything = sent["alice"] + sent["bob"]
    for client in (alice, bob):
        client.wait_for_messages(room, everything)
    for client in (alice, bob):
        client.wait_outbox_empty()
        feed = client.feed(room)
        assert_exactly_once_in_order(feed, everything, client.name)
        assert_sender_order(feed, sent)
    history = server.history(room, tokens["alice"])
    assert as_pairs(history) == as_pairs(alice.feed(room)) == as_pairs(bob.feed(room))
    assert as_pairs(alice.command(f"history {room}")["messages"]) == as_pairs(history)


def test_message_sent_while_server_is_down_is_delivered_once_after_it_returns(world):
    server, tokens, room, peer, _ = world
    alice, bob = watching(peer("alice"), room), watching(peer("bob"), room)
    first = alice.send(room, "hello")
    bob.wait_for_messages(room, [first])
    # Bob can see it before alice has read the answer (the server publishes, then answers).
    alice.wait_outbox_empty()

    server.kill()
    offline = alice.send(room, "sent while the server is down")
    entries = alice.command("outbox")["entries"]
    assert [(e["client_id"], e["state"]) for e in entries] == [(offline, "pending")]

    server.start()
    for client in (alice, bob):
        client.wait_for_messages(room, [first, offline])
    alice.wait_outbox_empty()
    history = server.history(room, tokens["bob"])
    assert [m["client_id"] for m in history] == [first, offline]
    assert text_of(history[1]) == "sent while the server is down"
    for client in (alice, bob):
        assert_exactly_once_in_order(client.feed(room), [first, offline], client.name)


def test_outbox_survives_killing_the_client_process(world):
    server, tokens, room, peer, work = world
    store = work / "alice-outbox.sqlite"
    bob = watching(peer("bob"), room)
    alice = watching(peer("alice", store), room)
    delivered = alice.send(room, "before the crash")
    bob.wait_for_messages(room, [delivered])
    alice.wait_outbox_empty()

    server.kill()
    queued = [alice.send(room, f"queued {i}") for i in range(3)]
    assert [e["client_id"] for e in alice.command("outbox")["entries"]] == queued
    alice.kill()  # SIGKILL: no chance to flush anything

    server.start()
    bob.wait_online(2)
    revived = peer("alice", store)
    # Before it even connects, the new process has the dead one's outbox.
    assert [e["client_id"] for e in revived.command("outbox")["entries"]] == queued
    watching(revived, room)
    expected = [delivered, *queued]
    revived.wait_for_messages(room, expected)
    bob.wait_for_messages(room, expected)
    revived.wait_outbox_empty()
    history = server.history(room, tokens["bob"])
    assert [m["client_id"] for m in history] == expected
    assert_exactly_once_in_order(bob.feed(room), expected, "bob")
    assert_exactly_once_in_order(revived.feed(room), expected, "alice (revived)")


def test_client_killed_right_after_queueing_with_the_server_up_still_delivers_once(world):
    """The send may have reached the server before the kill, or not: either way, the revived
    outbox resends it with the same client id and the room holds it once."""
    server, tokens, room, peer, work = world
    store = work / "alice-racing.sqlite"
    bob = watching(peer("bob"), room)
    alice = watching(peer("alice", store), room)
    raced = [alice.send(room, f"racing {i}") for i in range(5)]
    alice.kill()

    revived = watching(peer("alice", store), room)
    revived.wait_outbox_empty()
    bob.wait_for_messages(room, raced)
    history = server.history(room, tokens["bob"])
    assert [m["client_id"] for m in history] == raced
    assert_exactly_once_in_order(bob.feed(room), raced, "bob")
    revived.wait_for_messages(room, raced)
    assert_exactly_once_in_order(revived.feed(room), raced, "alice (revived)")


def test_events_missed_while_offline_are_filled_from_history(world):
    server, tokens, room, peer, _ = world
    alice, bob = watching(peer("alice"), room), watching(peer("bob"), room)
    opening = [alice.send(room, "hi bob")]
    bob.wait_for_messages(room, opening)

    # Bob loses his network: his realtime socket dies (1006), his requests fail.
    bob.command("network off")
    bob.wait(lambda reports: any(r["event"] == "state" and r["state"] == "reconnecting" for r in reports), "reconnecting")
    missed = [alice.send(room, f"missed {i}") for i in range(120)]  # more than one history page
    alice.wait_for_messages(room, missed)  # acknowledged by the server: only history has them for bob
    assert set(missed).isdisjoint(m["client_id"] for m in bob.feed(room))

    # He comes back while alice keeps talking: live events and the history fill overlap.
    bob.command("network on")
    live = [alice.send(room, f"live {i}") for i in range(10)]
    bob.wait_online(2)
    live += [alice.send(room, f"live {i}") for i in range(10, 15)]
    everything = opening + missed + live
    bob.wait_for_messages(room, everything)
    alice.wait_for_messages(room, everything)
    assert_exactly_once_in_order(bob.feed(room), everything, "bob")
    assert as_pairs(bob.feed(room)) == as_pairs(server.history(room, tokens["bob"]))


def test_a_failed_history_fill_is_retried_without_waiting_for_new_events(world):
    """After the reconnect the history read fails (a 503, as from an overloaded server) and
    nothing new is said in the room: the missed messages must still arrive."""
    server, tokens, room, peer, _ = world
    alice, bob = watching(peer("alice"), room), watching(peer("bob"), room)
    opening = [alice.send(room, "hi bob")]
    bob.wait_for_messages(room, opening)

    bob.command("network off")
    missed = [alice.send(room, f"missed {i}") for i in range(5)]
    alice.wait_for_messages(room, missed)
    bob.command("fail-history 2")
    bob.command("network on")
    bob.wait_online(2)
    bob.wait_for_messages(room, opening + missed)
    assert_exactly_once_in_order(bob.feed(room), opening + missed, "bob")
