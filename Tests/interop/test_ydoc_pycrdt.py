"""Generic Yjs documents: pycrdt (Yrs) as the oracle for Parley's server replica (the
YDocument of ParleyText, driven through the ParleyTextPeer).

Several pycrdt replicas edit concurrently a document holding a formatted Text, a Map with
nested values, an Array with nested maps, an XmlFragment of XmlElements and XmlTexts, and
roots with arbitrary names. Every update reaches the Parley replica late, shuffled and
partly twice; the Parley replica's encoded state, read back by a fresh pycrdt document,
must equal the replicas' converged content. Another pycrdt document that syncs only
with the Parley replica (step 1 / step 2, while updates are still arriving) must converge
too: pycrdt -> Parley -> pycrdt.

pycrdt counts Text positions in UTF-8 bytes, so positions are taken on character
boundaries of the Python string.
"""
import random

import pytest
from pycrdt import Array, Doc, Map, Text, XmlElement, XmlFragment, XmlText

from test_text_pycrdt import SwiftPeer  # noqa: F401 (the peer driver)

TEXT_ROOT = "content"
ROOTS = {TEXT_ROOT: Text, "meta": Map, "items": Array, "prose": XmlFragment, "notes ✓ 2": Text}
SNIPPETS = ["a", "bc", "héllo", " ", "✓", "😀", "xyz\n", "Ünï"]
ATTRS = [None, None, {"bold": True}, {"italic": True, "color": "#f00"}, {"link": {"href": "https://x"}}]


@pytest.fixture
def peer():
    p = SwiftPeer()
    yield p
    p.close()


def new_replica(client_id):
    doc = Doc(client_id=client_id)
    for name, kind in ROOTS.items():
        doc[name] = kind()
    updates = []
    doc.observe(lambda event: updates.append(event.update))
    return doc, updates


def utf8_offset(text, index):
    return len(text[:index].encode())


def positions(text):
    """The text as pycrdt indexes it: an embed takes one position, like one ASCII byte."""
    return "".join(part if isinstance(part, str) else "\0" for part, _ in text.diff())


def edit_text(rng, text):
    current = positions(text)
    roll = rng.random()
    if current and roll < 0.25:
        start = rng.randrange(len(current))
        stop = min(len(current), start + rng.randint(1, 4))
        del text[utf8_offset(current, start):utf8_offset(current, stop)]
    elif current and roll < 0.45:
        start = rng.randrange(len(current))
        stop = min(len(current), start + rng.randint(1, 6))
        text.format(utf8_offset(current, start), utf8_offset(current, stop),
                    rng.choice([{"bold": True}, {"bold": None}, {"italic": True}]))
    elif roll < 0.5:
        text.insert_embed(utf8_offset(current, rng.randint(0, len(current))), {"image": f"i{rng.randint(0, 9)}.png"})
    else:
        index = rng.randint(0, len(current))
        text.insert(utf8_offset(current, index), rng.choice(SNIPPETS), rng.choice(ATTRS))


def random_value(rng, depth=0):
    roll = rng.random()
    if roll < 0.2:
        return rng.randint(-1000, 1000)
    if roll < 0.4:
        return rng.choice(SNIPPETS)
    if roll < 0.5:
        return [rng.randint(0, 9), {"k": rng.choice(SNIPPETS)}, None, True]
    if roll < 0.7 and depth < 2:
        return Map({f"n{i}": random_value(rng, depth + 1) for i in range(rng.randint(0, 2))})
    if roll < 0.8 and depth < 2:
        return Array([random_value(rng, depth + 1) for _ in range(rng.randint(0, 2))])
    return rng.random() < 0.5


def edit_map(rng, root):
    key = f"k{rng.randint(0, 5)}"
    nested = [value for value in root.values() if isinstance(value, Map)]
    roll = rng.random()
    if nested and roll < 0.3:
        target = rng.choice(nested)
        target[f"n{rng.randint(0, 3)}"] = random_value(rng, 2)
    elif key in root and roll < 0.45:
        del root[key]
    else:
        root[key] = random_value(rng)


def edit_array(rng, root):
    maps = [value for value in root if isinstance(value, Map)]
    roll = rng.random()
    if maps and roll < 0.3:
        rng.choice(maps)[f"n{rng.randint(0, 3)}"] = random_value(rng, 2)
    elif len(root) and roll < 0.5:
        del root[rng.randrange(len(root))]
    else:
        root.insert(rng.randint(0, len(root)), random_value(rng))


def edit_xml(rng, fragment):
    elements = list(fragment.children)
    roll = rng.random()
    if elements and roll < 0.35:
        element = rng.choice(elements)
        texts = [child for child in element.children if isinstance(child, XmlText)]
        if texts:
            text = rng.choice(texts)
            current = positions(text)
            text.insert(utf8_offset(current, rng.randint(0, len(current))), rng.choice(SNIPPETS))
        else:
            element.children.append(XmlText(rng.choice(SNIPPETS)))
    elif elements and roll < 0.5:
        rng.choice(elements).attributes[rng.choice(["class", "id"])] = rng.choice(["a", "b", "c"])
    elif elements and roll < 0.6:
        del fragment.children[rng.randrange(len(elements))]
    else:
        index = rng.randint(0, len(elements))
        fragment.children.insert(index, XmlElement(rng.choice(["p", "h1", "li"]), {"data-n": str(rng.randint(0, 9))},
                                                   [XmlText(rng.choice(SNIPPETS))]))


def random_edit(rng, doc):
    name = rng.choice(list(ROOTS))
    root = doc[name]
    if isinstance(root, Text):
        edit_text(rng, root)
    elif isinstance(root, Map):
        edit_map(rng, root)
    elif isinstance(root, Array):
        edit_array(rng, root)
    else:
        edit_xml(rng, root)


def xml_tree(node):
    """An XML node as plain values (attribute order is not part of the content)."""
    if isinstance(node, XmlText):
        return node.diff()
    children = [xml_tree(child) for child in node.children]
    if isinstance(node, XmlFragment):
        return children
    return {"tag": node.tag, "attrs": dict(node.attributes), "children": children}


def content(doc):
    """Every root's content in a comparable form (formatted runs for texts)."""
    out = {}
    for name, kind in ROOTS.items():
        root = doc.get(name, type=kind)
        if kind is Text:
            out[name] = root.diff()
        elif kind is XmlFragment:
            out[name] = xml_tree(root)
        else:
            out[name] = root.to_py()
    return out


def read_back(update):
    doc = Doc()
    doc.apply_update(update)
    return content(doc)


def state_vector(encoded):
    """A decoded state vector: {client: clock} (the order of entries is free)."""
    values, value, shift = [], 0, 0
    for byte in encoded:
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            values.append(value)
            value, shift = 0, 0
    assert values[0] * 2 + 1 == len(values)
    return dict(zip(values[1::2], values[2::2]))


def pull_from_parley(peer, doc):
    """One sync round as a y-websocket client does it: send step 1, apply step 2 and any
    updates the replica still holds back."""
    answer = peer.ok(op="replica_diff", doc="server", sv=doc.get_state().hex())
    doc.apply_update(bytes.fromhex(answer["update"]))
    for pending in answer["pending"]:
        doc.apply_update(bytes.fromhex(pending))


@pytest.mark.parametrize("seed", range(12))
def test_random_concurrent_replicas_through_parley(peer, seed):
    rng = random.Random(seed)
    replicas = [new_replica(client_id) for client_id in (11 + seed, 2_000_000 + seed, 77)]
    peer.ok(op="replica_new", doc="server")
    reader, _ = new_replica(5)  # syncs with the Parley replica only
    undelivered = []
    for round_number in range(30):
        for doc, updates in replicas:
            for _ in range(rng.randint(1, 4)):
                with doc.transaction():
                    random_edit(rng, doc)
            undelivered.extend(updates)
            updates.clear()
        # Replicas see some of each other's changes (concurrency without full sync).
        for doc, _ in replicas:
            other, _ = rng.choice(replicas)
            if other is not doc and rng.random() < 0.6:
                doc.apply_update(other.get_update(doc.get_state()))
        # The server receives a shuffled part of what is pending, some twice.
        rng.shuffle(undelivered)
        cut = rng.randint(0, len(undelivered))
        for update in undelivered[:cut] + rng.sample(undelivered[:cut], min(2, cut)):
            peer.ok(op="replica_apply", doc="server", update=update.hex())
        undelivered = undelivered[cut:]
        if round_number % 5 == 4:
            pull_from_parley(peer, reader)
    for update in reversed(undelivered):
        peer.ok(op="replica_apply", doc="server", update=update.hex())
    for doc, _ in replicas:
        for other, _ in replicas:
            if other is not doc:
                doc.apply_update(other.get_update(doc.get_state()))
    expected = content(replicas[0][0])
    assert all(content(doc) == expected for doc, _ in replicas)
    state = peer.ok(op="replica_diff", doc="server", sv="00")
    assert state["pending"] == []
    assert read_back(bytes.fromhex(state["update"])) == expected
    pull_from_parley(peer, reader)
    assert content(reader) == expected
    # And the replica's state vector is the replicas' state vector.
    assert state_vector(bytes.fromhex(peer.ok(op="replica_sv", doc="server")["sv"])) == \
        state_vector(replicas[0][0].get_state())


def test_out_of_order_updates_wait_until_their_dependencies_arrive(peer):
    doc, updates = new_replica(42)
    doc["meta"]["list"] = Array([1, 2])
    doc["meta"]["list"].append(Map({"done": False}))
    doc["meta"]["list"][2]["done"] = True
    doc[TEXT_ROOT].insert(0, "plain ")
    doc[TEXT_ROOT].insert(6, "bold", {"bold": True})
    doc["prose"].children.append(XmlElement("p", {}, [XmlText("x")]))
    peer.ok(op="replica_new", doc="server")
    for update in reversed(updates[1:]):
        answer = peer.ok(op="replica_apply", doc="server", update=update.hex())
        assert answer["changed"] and answer["pending"]
    # Nothing integrated yet: what waits is still served to a peer that syncs.
    early = Doc()
    pull_from_parley(peer, early)
    answer = peer.ok(op="replica_apply", doc="server", update=updates[0].hex())
    assert answer["changed"] and not answer["pending"]
    assert read_back(bytes.fromhex(peer.ok(op="replica_diff", doc="server", sv="00")["update"])) == content(doc)
    assert content(early) != content(doc)
    pull_from_parley(peer, early)
    assert content(early) == content(doc)


def test_repeated_update_changes_nothing(peer):
    doc, updates = new_replica(9)
    doc["meta"]["a"] = 1
    peer.ok(op="replica_new", doc="server")
    assert peer.ok(op="replica_apply", doc="server", update=updates[0].hex())["changed"]
    assert not peer.ok(op="replica_apply", doc="server", update=updates[0].hex())["changed"]


def test_deleted_nested_types_are_garbage_collected(peer):
    doc, updates = new_replica(3)
    doc["meta"]["big"] = Map({"text": Text("x" * 500), "list": Array(list(range(200)))})
    doc["items"].append(Map({"inner": Array(["y" * 300])}))
    peer.ok(op="replica_new", doc="server")
    for update in updates:
        peer.ok(op="replica_apply", doc="server", update=update.hex())
    before = len(bytes.fromhex(peer.ok(op="replica_diff", doc="server", sv="00")["update"]))
    updates.clear()
    del doc["meta"]["big"]
    del doc["items"][0]
    for update in updates:
        peer.ok(op="replica_apply", doc="server", update=update.hex())
    after = bytes.fromhex(peer.ok(op="replica_diff", doc="server", sv="00")["update"])
    assert read_back(after) == content(doc)
    # The deleted types' content is gone from the replica's state, as in Yjs.
    assert b"x" * 500 not in after and b"y" * 300 not in after
    assert len(after) < before / 4
    # A late item inside the deleted map arrives as garbage and changes nothing visible.
    late = Doc(client_id=8)
    late.apply_update(doc.get_update())
    assert read_back(after) == content(late)
