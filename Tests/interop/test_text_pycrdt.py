"""Interop of ParleyText (through the ParleyTextPeer line-protocol peer) with pycrdt (Yrs).

Updates made in Swift are applied by pycrdt and the other way round; a randomised
differential test runs several concurrent clients, some Swift and some pycrdt, with random
edits and random (out-of-order, duplicated) delivery, and compares the final texts.

pycrdt counts Text positions in UTF-8 bytes; the Swift peer counts Unicode scalars.
"""
import json
import os
import random
import subprocess
from pathlib import Path

import pytest
from pycrdt import Doc, Text

REPO = Path(__file__).resolve().parents[2]
BIN_DIR = REPO / os.environ.get("PARLEY_BIN_DIR", ".build/debug")
PEER = BIN_DIR / "ParleyTextPeer"


class SwiftPeer:
    """Drives the ParleyTextPeer executable: one JSON request line, one JSON response line."""

    def __init__(self):
        if not PEER.exists():
            pytest.fail(f"{PEER} is missing: run `swift build --product ParleyTextPeer` first")
        self.proc = subprocess.Popen([str(PEER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def call(self, **request):
        if os.environ.get("PARLEY_PEER_LOG"):
            with open(os.environ["PARLEY_PEER_LOG"], "a") as log:
                log.write(json.dumps(request) + "\n")
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "peer exited"
        return json.loads(line)

    def ok(self, **request):
        response = self.call(**request)
        assert response["ok"], response
        return response

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture
def peer():
    p = SwiftPeer()
    yield p
    p.close()


class SwiftClient:
    """One Swift document inside the peer."""

    def __init__(self, peer, name, client_id):
        self.peer, self.name, self.client_id = peer, name, client_id
        peer.ok(op="new", doc=name, client=client_id, root="text")

    def insert(self, pos, s):
        self.peer.ok(op="insert", doc=self.name, pos=pos, text=s)

    def delete(self, pos, n):
        self.peer.ok(op="delete", doc=self.name, pos=pos, len=n)

    def take(self):
        """The local edits since the last call, as a list of updates (one transaction)."""
        u = self.peer.ok(op="take", doc=self.name)["update"]
        return [bytes.fromhex(u)] if u is not None else []

    def apply(self, updates):
        for update in [updates] if isinstance(updates, bytes) else updates:
            self.peer.ok(op="apply", doc=self.name, update=update.hex())

    def text(self):
        return self.peer.ok(op="text", doc=self.name)["text"]

    def state(self):
        return bytes.fromhex(self.peer.ok(op="sv", doc=self.name)["sv"])

    def diff(self, sv):
        return bytes.fromhex(self.peer.ok(op="diff", doc=self.name, sv=sv.hex())["update"])


class PyClient:
    """One pycrdt document; edits in scalar positions, converted to pycrdt's UTF-8 bytes."""

    def __init__(self, client_id):
        self.client_id = client_id
        self.doc = Doc(client_id=client_id)
        self.doc["text"] = self.t = Text()
        self.updates = []
        self.doc.observe(lambda event: self.updates.append(event.update))

    def _byte(self, pos):
        return len(str(self.t)[:pos].encode("utf-8"))

    def insert(self, pos, s):
        self.t.insert(self._byte(pos), s)

    def delete(self, pos, n):
        start, end = self._byte(pos), self._byte(pos + n)
        del self.t[start:end]

    def take(self):
        """The local edits since the last call, as a list of updates (one per transaction)."""
        taken, self.updates = self.updates, []
        return taken

    def apply(self, updates):
        for update in [updates] if isinstance(updates, bytes) else updates:
            self.doc.apply_update(update)
        self.updates.clear()  # remote updates are not this client's own edits

    def text(self):
        return str(self.t)

    def state(self):
        return self.doc.get_state()

    def diff(self, sv):
        return self.doc.get_update(sv)


def test_swift_edits_reach_pycrdt(peer):
    swift = SwiftClient(peer, "a", 101)
    swift.insert(0, "héllo wörld")
    swift.insert(5, " €uro 😀")
    swift.delete(0, 1)
    swift.insert(0, "H")
    py = PyClient(202)
    py.apply(swift.take())
    assert py.text() == swift.text() == "Héllo €uro 😀 wörld"
    swift.delete(11, 2)
    swift.insert(11, "🎉x")
    py.apply(swift.take())
    assert py.text() == swift.text() == "Héllo €uro 🎉xwörld"


def test_pycrdt_edits_reach_swift(peer):
    py = PyClient(303)
    py.insert(0, "añb€c😀d")
    first = py.take()
    py.insert(3, "Ω")
    py.delete(6, 2)
    second = py.take()
    swift = SwiftClient(peer, "a", 404)
    swift.apply(first)
    swift.apply(second)
    assert swift.text() == py.text() == "añbΩ€c"
    # Swift edits on top of pycrdt's go back.
    swift.insert(6, " ✓")
    py.apply(swift.take())
    assert py.text() == "añbΩ€c ✓"


def test_concurrent_inserts_at_same_spot_order_like_yrs(peer):
    for ids in [(1, 2), (2, 1), (10, 3), (3, 10)]:
        base = PyClient(99)
        base.insert(0, "ab")
        seed = base.take()
        swift = SwiftClient(peer, f"s{ids}", ids[0])
        py = PyClient(ids[1])
        swift.apply(seed)
        py.apply(seed)
        swift.insert(1, "SWIFT")
        py.insert(1, "PY")
        su, pu = swift.take(), py.take()
        swift.apply(pu)
        py.apply(su)
        assert swift.text() == py.text()
        # Yjs/Yrs order concurrent inserts with the same neighbours by client id, lower first.
        expected = "aSWIFTPYb" if ids[0] < ids[1] else "aPYSWIFTb"
        assert swift.text() == expected


def test_state_vector_diff_both_ways(peer):
    swift = SwiftClient(peer, "a", 11)
    py = PyClient(22)
    swift.insert(0, "shared ")
    py.apply(swift.take())
    # Diverge while disconnected.
    swift.insert(7, "swift-side é ")
    swift.delete(0, 1)
    py.insert(len(py.text()), "py-side 😀")
    swift.take(), py.take()
    # Sync step 1/2 both ways, with state vectors.
    to_py = swift.diff(py.state())
    to_swift = py.diff(swift.state())
    py.apply(to_py)
    swift.apply(to_swift)
    assert swift.text() == py.text()
    assert "swift-side é" in swift.text() and "py-side 😀" in swift.text()
    # Once in sync, the state vectors agree and a diff adds nothing.
    assert Doc_state(py.state()) == Doc_state(swift.state())
    again = PyClient(33)
    again.apply(swift.diff(bytes([0])))
    assert again.text() == swift.text()


def Doc_state(sv):
    """Decodes a state vector into a dict (varuint pairs)."""
    out, i = {}, 0

    def varuint():
        nonlocal i
        value = shift = 0
        while True:
            b = sv[i]
            i += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    for _ in range(varuint()):
        client = varuint()
        out[client] = varuint()
    return out


def test_swift_full_state_loads_in_pycrdt_and_back(peer):
    swift = SwiftClient(peer, "a", 5)
    rng = random.Random(7)
    for _ in range(300):
        text = swift.text()
        if text and rng.random() < 0.35:
            pos = rng.randrange(len(text))
            swift.delete(pos, min(rng.randint(1, 4), len(text) - pos))
        else:
            swift.insert(rng.randint(0, len(text)), rng.choice(["a", "bc", "é", "😀", "€€", "xyz"]))
    full = swift.diff(bytes([0]))
    py = PyClient(6)
    py.apply(full)
    assert py.text() == swift.text()
    back = SwiftClient(peer, "b", 7)
    back.apply(py.diff(bytes([0])))
    assert back.text() == swift.text()


ALPHABET = ["a", "b", "c", "xy", "é", "€", "😀", " ", "ñandú", "🎉z"]


def random_edit(rng, client):
    text = client.text()
    if text and rng.random() < 0.4:
        pos = rng.randrange(len(text))
        client.delete(pos, min(rng.randint(1, 3), len(text) - pos))
    else:
        client.insert(rng.randint(0, len(text)), rng.choice(ALPHABET))


@pytest.mark.parametrize("seed", range(200))
def test_randomised_differential(peer, seed):
    rng = random.Random(seed)
    ids = rng.sample(range(1, 2**32), 3)
    kinds = rng.choice([["swift", "swift", "py"], ["swift", "py", "py"], ["py", "swift", "py"],
                        ["swift", "py", "swift"]])
    clients = [SwiftClient(peer, f"c{i}", ids[i]) if kind == "swift" else PyClient(ids[i])
               for i, kind in enumerate(kinds)]
    log = []            # every update made, in creation order
    inbox = [[] for _ in clients]  # per client: updates not yet delivered
    for _ in range(rng.randint(10, 40)):
        who = rng.randrange(3)
        for _ in range(rng.randint(1, 3)):
            random_edit(rng, clients[who])
        for update in clients[who].take():
            log.append(update)
            for other in range(3):
                if other != who:
                    inbox[other].append(update)
        # Deliver a random selection, in random order, sometimes twice.
        for target in range(3):
            rng.shuffle(inbox[target])
            for _ in range(rng.randint(0, len(inbox[target]))):
                u = inbox[target].pop()
                clients[target].apply(u)
                if rng.random() < 0.1:
                    clients[target].apply(u)
    for target in range(3):
        rest = inbox[target] + rng.sample(log, k=min(3, len(log)))
        rng.shuffle(rest)
        for u in rest:
            clients[target].apply(u)
    # Anti-entropy by state-vector diffs (sync step 1/2) between every pair, twice over.
    # (Yrs can leave structs pending after some out-of-order deliveries; a diff completes it.)
    for _ in range(2):
        for a in range(3):
            for b in range(3):
                if a != b:
                    clients[a].apply(clients[b].diff(clients[a].state()))
    texts = [c.text() for c in clients]
    assert texts[0] == texts[1] == texts[2], (kinds, texts)
    # A fresh Swift replica fed every update in a random order agrees, and so does a fresh
    # pycrdt replica fed them in causal order.
    shuffled = log[:]
    rng.shuffle(shuffled)
    fresh_swift = SwiftClient(peer, "fresh", 8)
    for u in shuffled:
        fresh_swift.apply(u)
    fresh_py = PyClient(7)
    for u in log:
        fresh_py.apply(u)
    assert fresh_swift.text() == fresh_py.text() == texts[0]
