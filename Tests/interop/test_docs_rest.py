"""Room documents over REST, with pycrdt as the oracle: `GET /v1/rooms/{room_id}/docs/{name}`
answers the server replica's content as JSON (texts as strings or Quill deltas, maps, arrays,
XML trees, binary as base64) and `…/update` the whole state as one Yjs update, both with the
room's permissions.

pycrdt replicas edit a document of formatted Text, Map (with binary, nested maps and a nested
formatted Text), Array of nested maps and XmlFragment of XmlElements and XmlTexts under several
roots, and send their updates over the y-websocket endpoint. The JSON must equal what pycrdt
reports of the same document (`diff()` for texts, the shared types walked for the rest), and
the update applied to a fresh pycrdt Doc must give the same content.
"""
import asyncio
import base64
import random

import pytest
from pycrdt import Array, Doc, Map, Text, XmlElement, XmlFragment, XmlText, create_update_message
from websockets.asyncio.client import connect

from chat_support import APP_A, ChatServer, basic, mint
from test_docs_ywebsocket import doc_url, setup_room
from test_ydoc_pycrdt import ROOTS, TEXT_ROOT, content, new_replica, random_edit


@pytest.fixture(scope="module")
def docs_server():
    server = ChatServer().start()
    yield server
    server.stop()


def fill(doc, who):
    """Content of every kind, so no root is empty whatever the random edits did."""
    text = doc[TEXT_ROOT]
    text.insert(0, f"{who} plain ")
    text.insert(len(str(text).encode()), f"{who} bold", {"bold": True})
    text.insert_embed(len(str(text).encode()), {"image": f"{who}.png"}, {"width": 10})
    doc["meta"][f"title-{who}"] = f"Board of {who} ✓"
    doc["meta"][f"blob-{who}"] = b"\x00\x01\xffbytes"
    doc["meta"][f"nested-{who}"] = Map({"by": who, "tags": Array([who, 2.5, None, True]), "n": -7})
    body = Text()
    doc["meta"][f"body-{who}"] = body
    body.insert(0, "body ")
    body.insert(5, "italic", {"italic": True})
    doc["items"].append(Map({"label": f"task of {who}", "done": False, "sub": Map({"depth": 2})}))
    doc["items"].append(3)
    doc["prose"].children.append(XmlElement("p", {"data-who": who}, [XmlText(f"paragraph by {who}"),
                                                                       XmlElement("em", {}, [XmlText("x")])]))
    doc["notes ✓ 2"].insert(0, "ü")


def text_json(diff):
    """A pycrdt or Parley delta as Parley answers it: a string when nothing is formatted,
    else inserts with attributes, neighbouring runs of equal attributes merged."""
    ops = []
    for insert, attributes in diff:
        attributes = {key: value for key, value in (attributes or {}).items() if value is not None}
        if isinstance(insert, str) and ops and isinstance(ops[-1][0], str) and ops[-1][1] == attributes:
            ops[-1] = (ops[-1][0] + insert, attributes)
        elif not (isinstance(insert, str) and insert == ""):
            ops.append((insert, attributes))
    if all(isinstance(insert, str) and not attributes for insert, attributes in ops):
        return "".join(insert for insert, _ in ops)
    return [{"insert": insert, **({"attributes": attributes} if attributes else {})} for insert, attributes in ops]


def normalized(value):
    """Parley's JSON with deltas merged the same way (Yrs and Yjs may split runs differently)."""
    if isinstance(value, list) and value and all(isinstance(op, dict) and "insert" in op for op in value):
        return text_json([(op["insert"], op.get("attributes")) for op in value])
    if isinstance(value, list):
        return [normalized(item) for item in value]
    if isinstance(value, dict):
        return {key: normalized(item) for key, item in value.items()}
    return value


def expected(value):
    """What Parley should answer for a pycrdt value."""
    if isinstance(value, (Text, XmlText)):
        return text_json(value.diff())
    if isinstance(value, XmlElement):
        return {"nodeName": value.tag, "attributes": {k: expected(v) for k, v in dict(value.attributes).items()},
                "children": [expected(child) for child in value.children]}
    if isinstance(value, XmlFragment):
        return {"children": [expected(child) for child in value.children]}
    if isinstance(value, Map):
        return {key: expected(item) for key, item in value.items()}
    if isinstance(value, Array):
        return [expected(item) for item in value]
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, dict):
        return {key: expected(item) for key, item in value.items()}
    if isinstance(value, list):
        return [expected(item) for item in value]
    return value


def expected_document(doc):
    return {name: expected(doc.get(name, type=kind)) for name, kind in ROOTS.items()}


def build_document(seed):
    """Two replicas editing concurrently, then merged; returns one of them and every update."""
    rng = random.Random(seed)
    doc_a, updates_a = new_replica(1001)
    doc_b, updates_b = new_replica(2002)
    fill(doc_a, "alice")
    fill(doc_b, "bob")
    for _ in range(120):
        random_edit(rng, rng.choice([doc_a, doc_b]))
    doc_a.apply_update(doc_b.get_update(doc_a.get_state()))
    doc_b.apply_update(doc_a.get_update(doc_b.get_state()))
    assert content(doc_a) == content(doc_b)
    return doc_a, updates_a + updates_b


def send_updates(server, room, name, user, updates):
    async def run():
        async with connect(doc_url(server, room, name, user)) as ws:
            for update in updates:
                await ws.send(create_update_message(update))
            # The server answers step 1 after handling everything sent before it.
            await ws.send(bytes([0, 0, 1, 0]))
            while (await ws.recv())[:2] != bytes([0, 1]):
                pass
    asyncio.run(run())


def get(server, path, user=None, auth=None):
    return server.request("GET", path, token=mint(APP_A, user) if user else None, auth=auth)


@pytest.mark.parametrize("seed", [3, 11])
def test_content_json_and_update_equal_what_pycrdt_reports(docs_server, seed):
    room, alice, bob, _ = setup_room(docs_server)
    doc, updates = build_document(seed)
    send_updates(docs_server, room, "board", alice, updates)

    answer = get(docs_server, f"/v1/rooms/{room}/docs/board", bob)
    assert answer.status == 200, answer
    assert answer.headers.get("Content-Type") == "application/json"
    body = answer.json
    assert body["room_id"] == room and body["name"] == "board" and body["id"]
    want = expected_document(doc)
    got = normalized(body["content"])
    assert set(got) <= set(want)
    for name in want:
        if name not in got or got[name] is None:
            # A root with nothing visible left has no kind to tell: it reads as null.
            assert want[name] in ("", [], {}, {"children": []}), name
        else:
            assert got[name] == want[name], name
    assert isinstance(got[TEXT_ROOT], list), "the formatted text reads as a delta"
    assert got["meta"]["blob-alice"] == base64.b64encode(b"\x00\x01\xffbytes").decode()
    assert got["meta"]["body-bob"] == [{"insert": "body "}, {"insert": "italic", "attributes": {"italic": True}}]

    raw = get(docs_server, f"/v1/rooms/{room}/docs/board/update", alice)
    assert raw.status == 200, raw
    assert raw.headers.get("Content-Type") == "application/octet-stream"
    fresh = Doc()
    fresh.apply_update(raw.body)
    assert content(fresh) == content(doc)
    assert expected_document(fresh) == want


def test_room_permissions_are_those_of_the_other_room_routes(docs_server):
    room, alice, bob, carol = setup_room(docs_server)
    doc, updates = new_replica(77)
    fill(doc, "alice")
    send_updates(docs_server, room, "perm", alice, updates)
    path = f"/v1/rooms/{room}/docs/perm"

    for suffix in ("", "/update"):
        # A user outside the room: as the room's messages answer it.
        outsider = get(docs_server, path + suffix, carol)
        reference = get(docs_server, f"/v1/rooms/{room}/messages", carol)
        assert (outsider.status, outsider.json["error"]["code"]) == (reference.status, reference.json["error"]["code"])
        assert outsider.status == 403 and outsider.json["error"]["code"] == "not_member"
        # An unknown room.
        missing_room = get(docs_server, f"/v1/rooms/no-such-room/docs/perm{suffix}", carol)
        reference = get(docs_server, "/v1/rooms/no-such-room/messages", carol)
        assert (missing_room.status, missing_room.json["error"]["code"]) == (reference.status, reference.json["error"]["code"])
        assert missing_room.status == 404 and missing_room.json["error"]["code"] == "room_not_found"
        # No credentials.
        anonymous = get(docs_server, path + suffix)
        assert anonymous.status == 401
        # A member, and the app's backend.
        assert get(docs_server, path + suffix, alice).status == 200
        assert get(docs_server, path + suffix, auth=basic(APP_A)).status == 200
        # A document the room does not have: not created by reading it.
        absent = get(docs_server, f"/v1/rooms/{room}/docs/never-opened{suffix}", alice)
        assert absent.status == 404 and absent.json["error"]["code"] == "document_not_found"
    assert get(docs_server, f"/v1/rooms/{room}/docs/never-opened", alice).status == 404

    # Leaving the room ends access at once.
    assert get(docs_server, path, bob).status == 200
    docs_server.ok("POST", f"/v1/rooms/{room}/leave", token=mint(APP_A, bob))
    assert get(docs_server, path, bob).status == 403
    assert get(docs_server, path, auth=basic(APP_A)).json["content"]["meta"]["title-alice"] == "Board of alice ✓"
