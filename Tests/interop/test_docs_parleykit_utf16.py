"""Issue 18: ParleyKit's UTF-16 document edits (`insert(_:atUTF16:)`,
`replace(utf16Range:with:)`, the offsets UIKit and SwiftUI hand an app) on text with emoji,
skin-tone modifiers, flags, ZWJ sequences and combining marks, converging with a pycrdt peer
on Parley's y-websocket endpoint. pycrdt addresses text in UTF-8 bytes, ParleyKit here in
UTF-16 units, Yjs itself in UTF-16 on the wire: both sides edit at once and must end with the
same text, each edit where its side meant it. Waits poll with deadlines; nothing is timed."""
import asyncio
import json

import httpx
from httpx_ws import aconnect_ws
from pycrdt import Doc, Provider, Text
from pycrdt.websocket.websocket import HttpxWebsocket

from chat_support import APP_A, mint
from test_docs_parleykit import DEADLINE, DocPeer, docs_server, setup_room, wait_until  # noqa: F401  (fixture)


def utf16_len(text):
    return len(text.encode("utf-16-le")) // 2


def utf8_offset(text, utf16_offset):
    """The UTF-8 byte offset (pycrdt's unit) of a UTF-16 offset in `text`."""
    units = 0
    for index, char in enumerate(text):
        if units == utf16_offset:
            return len(text[:index].encode("utf-8"))
        units += 2 if ord(char) > 0xFFFF else 1
    assert units == utf16_offset, (text, utf16_offset)
    return len(text.encode("utf-8"))


def utf16_splice(text, start, end, insert):
    """`text` with the UTF-16 range start..<end replaced, as NSString would."""
    units = text.encode("utf-16-le")
    return (units[:2 * start] + insert.encode("utf-16-le") + units[2 * end:]).decode("utf-16-le")


def uinsert(peer, offset, text):
    return peer.command(f"uinsert {offset} {json.dumps(text, ensure_ascii=False)}")


def ureplace(peer, start, end, text):
    return peer.command(f"ureplace {start} {end} {json.dumps(text, ensure_ascii=False)}")


def test_utf16_edits_with_emoji_and_combining_marks_converge_with_pycrdt(docs_server):
    room, alice, bob = setup_room(docs_server)
    peer = DocPeer(docs_server, mint(APP_A, alice), room, "utf16")
    try:
        asyncio.run(edit_together(docs_server, room, bob, peer))
    finally:
        peer.close()


async def edit_together(server, room, bob, peer):
    doc = Doc()
    text = doc.get("text", type=Text)
    url = f"http://127.0.0.1:{server.port}/v1/rooms/{room}/docs/utf16/ws?token={mint(APP_A, bob)}"
    async with httpx.AsyncClient() as client, aconnect_ws(url, client) as websocket:
        async with Provider(doc, HttpxWebsocket(websocket, "utf16")) as provider:
            await asyncio.wait_for(provider.synced.wait(), DEADLINE)

            # pycrdt writes the base text; "👍🏽" is 2 scalars, 4 UTF-16 units, 8 UTF-8 bytes.
            base = "👍🏽 hello"
            text.insert(0, base)
            assert await wait_until(lambda: peer.text() == base)
            assert peer.command("ulen") == f"LEN {utf16_len(base)}" == "LEN 10"

            # Concurrent: ParleyKit puts a decomposed "é" (e + U+0301) right after the emoji, at
            # UTF-16 offset 4; pycrdt puts a flag (2 regional indicators) at the end.
            expected = utf16_splice(utf16_splice(base, 10, 10, "🇫🇷"), 4, 4, "e\u0301")
            assert uinsert(peer, 4, "e\u0301") == "OK"
            text.insert(utf8_offset(base, 10), "🇫🇷")
            assert await wait_until(lambda: str(text) == expected and peer.text() == expected), (str(text), peer.text())
            assert expected == "👍🏽e\u0301 hello🇫🇷"

            # ParleyKit replaces the UTF-16 range of "hello" (7..<12) with a ZWJ family and a
            # combining-marked word, while pycrdt deletes the thumbs-up with its skin tone.
            current = expected
            family = "👨\u200d👩\u200d👧 n\u0303o"
            assert ureplace(peer, 7, 12, family) == "OK"
            del text[utf8_offset(current, 0):utf8_offset(current, 4)]
            expected = utf16_splice(utf16_splice(current, 7, 12, family), 0, 4, "")
            assert await wait_until(lambda: str(text) == expected and peer.text() == expected), (str(text), peer.text())
            assert expected == "e\u0301 👨\u200d👩\u200d👧 n\u0303o🇫🇷"

            # An offset inside a surrogate pair (between the halves of 🇫) is refused, and
            # changes nothing on either side.
            flag_start = utf16_len(expected) - 4
            answer = uinsert(peer, flag_start + 1, "x")
            assert answer.startswith("ERROR") and "surrogate" in answer, answer
            assert uinsert(peer, utf16_len(expected) + 1, "x").startswith("ERROR")
            # One more edit at the very end (after the flag) shows both still agree.
            assert uinsert(peer, utf16_len(expected), "!") == "OK"
            expected += "!"
            assert await wait_until(lambda: str(text) == expected and peer.text() == expected)
            assert peer.command("ulen") == f"LEN {utf16_len(expected)}"
