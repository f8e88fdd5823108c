"""y-protocols messages between ParleyText (through the ParleyTextPeer) and pycrdt's sync
and awareness helpers: the sync handshake in both directions, live update messages, and
awareness updates encoded on one side and decoded on the other.
"""
import json

import pytest
from pycrdt import (Awareness, Doc, Text, YMessageType, create_awareness_message, create_sync_message,
                    create_update_message, handle_sync_message, read_message)

from test_text_pycrdt import SwiftPeer  # noqa: F401 (the peer driver)


@pytest.fixture
def peer():
    p = SwiftPeer()
    yield p
    p.close()


def pydoc(text="", client_id=None):
    doc = Doc(client_id=client_id) if client_id is not None else Doc()
    doc["text"] = t = Text()
    if text:
        t += text
    return doc, t


def test_handshake_pycrdt_asks_swift(peer):
    peer.ok(op="new", doc="s", client=7, root="text")
    peer.ok(op="insert", doc="s", pos=0, text="from swift ✓")
    doc, text = pydoc("from py ", client_id=3)
    # pycrdt sends step 1; Swift answers with step 2; pycrdt applies it.
    reply = peer.ok(op="sync_handle", doc="s", message=create_sync_message(doc).hex())["reply"]
    assert handle_sync_message(bytes.fromhex(reply)[1:], doc) is None
    # Swift sends step 1; pycrdt answers with step 2; Swift applies it.
    step1 = bytes.fromhex(peer.ok(op="sync_step1", doc="s")["message"])
    assert step1[0] == YMessageType.SYNC
    answer = handle_sync_message(step1[1:], doc)
    assert answer is not None
    assert peer.ok(op="sync_handle", doc="s", message=answer.hex())["reply"] is None
    swift_text = peer.ok(op="text", doc="s")["text"]
    assert str(text) == swift_text
    assert "from swift ✓" in swift_text and "from py " in swift_text


def test_live_update_messages_both_ways(peer):
    peer.ok(op="new", doc="s", client=9, root="text")
    doc, text = pydoc(client_id=4)
    updates = []
    doc.observe(lambda event: updates.append(event.update))
    text += "héllo"
    for update in updates:
        assert peer.ok(op="sync_handle", doc="s", message=create_update_message(update).hex())["reply"] is None
    peer.ok(op="insert", doc="s", pos=5, text=" wörld")
    message = bytes.fromhex(peer.ok(op="sync_update", doc="s")["message"])
    assert message[:2] == bytes([0, 2])
    handle_sync_message(message[1:], doc)
    assert str(text) == "héllo wörld" == peer.ok(op="text", doc="s")["text"]
    decoded = peer.ok(op="sync_decode", message=create_update_message(updates[0]).hex())
    assert decoded["type"] == "update" and bytes.fromhex(decoded["payload"]) == updates[0]


def test_awareness_from_pycrdt_decodes_in_swift():
    doc, _ = pydoc(client_id=1234)
    awareness = Awareness(doc)
    awareness.set_local_state({"user": {"name": "Ada", "color": "#30bced"}, "cursor": 4})
    message = create_awareness_message(awareness.encode_awareness_update([1234]))
    p = SwiftPeer()
    try:
        decoded = p.ok(op="sync_decode", message=message.hex())
        assert decoded["type"] == "awareness"
        [[client, clock, state]] = decoded["entries"]
        assert client == 1234 and clock == awareness.meta[1234]["clock"]
        assert json.loads(state) == awareness.get_local_state()
        awareness.set_local_state(None)
        removal = create_awareness_message(awareness.encode_awareness_update([1234]))
        assert p.ok(op="sync_decode", message=removal.hex())["entries"] == [[1234, clock + 1, None]]
    finally:
        p.close()


def test_awareness_from_swift_applies_in_pycrdt(peer):
    message = bytes.fromhex(peer.ok(op="awareness_encode",
                                    entries=[[77, 3, '{"user":{"name":"Grace"}}'], [78, 2, None]])["message"])
    assert message[0] == YMessageType.AWARENESS
    doc, _ = pydoc(client_id=1)
    awareness = Awareness(doc)
    awareness.apply_awareness_update(read_message(message[1:]), "remote")
    assert awareness.states[77] == {"user": {"name": "Grace"}}
    assert 78 not in awareness.states
    assert awareness.meta[77]["clock"] == 3


def test_swift_refuses_malformed_messages(peer):
    for bad in ["", "09", "0003", "000105", "0102", "01050101010101ff"]:
        response = peer.call(op="sync_decode", message=bad)
        assert not response["ok"], bad
