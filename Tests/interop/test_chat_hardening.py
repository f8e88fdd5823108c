"""The chat API's smaller guards, over real HTTP (httpx) and a real Pusher WebSocket
(`websockets`): uploads typed by their bytes, link schemes, the user directory scoped to shared
rooms, `/metrics` behind a token, a room never left without an admin, `client_id` and part keys
as the OpenAPI document states them, and typing events that name only a verified sender."""
import json
import struct
import zlib

import httpx
import pytest

from chat_support import APP_A, ChatServer, basic, create_user, mint, unique

METRICS_TOKEN = "metrics-s3cret"


@pytest.fixture(scope="module")
def chat():
    server = ChatServer()
    # The apps file also carries the metrics token, as an operator's config would.
    config = json.loads((server.work / "apps.json").read_text())
    config["metrics_token"] = METRICS_TOKEN
    (server.work / "apps.json").write_text(json.dumps(config))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def http(chat):
    with httpx.Client(base_url=f"http://127.0.0.1:{chat.port}", timeout=30) as client:
        yield client


def bearer(user):
    return {"Authorization": "Bearer " + mint(APP_A, user)}


class Room:
    """A private room of APP_A: alice (admin), bob and eve (members); carol is in no room."""

    def __init__(self, chat, http):
        self.alice, self.bob, self.eve, self.carol = (unique(n) for n in ("alice", "bob", "eve", "carol"))
        for user in (self.alice, self.bob, self.eve, self.carol):
            create_user(chat, APP_A, user)
        answer = http.post("/v1/rooms", headers=bearer(self.alice),
                           json={"kind": "private", "name": "plans", "member_ids": [self.bob, self.eve]})
        assert answer.status_code == 201, answer.text
        self.id = answer.json()["id"]
        self.channel = f"private-room-{self.id}"


@pytest.fixture
def room(chat, http):
    return Room(chat, http)


def png(width, height):
    """A PNG whose IHDR claims width × height (valid chunk CRCs, one tiny IDAT)."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + chunk(b"IEND", b"")


def upload(http, room, user, body, content_type):
    return http.post(f"/v1/rooms/{room.id}/attachments", headers={**bearer(user), "Content-Type": content_type}, content=body)


def error_code(answer):
    return answer.json()["error"]["code"]


# Uploads

HTML = b"<!doctype html><html><body><script>fetch('/v1/me').then(r => r.text()).then(alert)</script></body></html>"


def test_html_declared_as_png_is_refused(room, http):
    answer = upload(http, room, room.alice, HTML, "image/png")
    assert answer.status_code == 422 and error_code(answer) == "content_type_mismatch", answer.text


def test_html_is_stored_as_plain_text_and_downloaded_not_rendered(room, http):
    stored = upload(http, room, room.alice, HTML, "text/html")
    assert stored.status_code == 201, stored.text
    meta = stored.json()
    assert meta["content_type"] == "text/plain; charset=utf-8"
    download = http.get(meta["download_url"])
    assert download.status_code == 200 and download.content == HTML
    assert download.headers["content-type"] == "text/plain; charset=utf-8"
    assert download.headers["x-content-type-options"] == "nosniff"
    assert download.headers["content-disposition"] == f'attachment; filename="{meta["id"]}"'


def test_png_with_huge_dimensions_is_refused(room, http):
    answer = upload(http, room, room.alice, png(16_777_215, 16_777_215), "image/png")
    assert answer.status_code == 422 and error_code(answer) == "image_too_large", answer.text
    # A real small PNG passes, is typed by its bytes and shown inline.
    small = upload(http, room, room.alice, png(4, 3), "application/octet-stream")
    assert small.status_code == 201, small.text
    assert (small.json()["content_type"], small.json()["width"], small.json()["height"]) == ("image/png", 4, 3)
    assert http.get(small.json()["download_url"]).headers["content-disposition"] == "inline"


def test_png_header_that_does_not_decode_is_refused(room, http):
    answer = upload(http, room, room.alice, png(5, 5)[:20], "image/png")
    assert answer.status_code == 422 and error_code(answer) == "invalid_image", answer.text


# Links

@pytest.mark.parametrize("url", ["javascript:alert(document.cookie)", "JavaScript:alert(1)", " javascript:alert(1)",
                                 "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "file:///etc/passwd"])
def test_dangerous_link_schemes_are_refused(room, http, url):
    message = http.post(f"/v1/rooms/{room.id}/messages", headers=bearer(room.alice),
                        json={"parts": [{"type": "url", "url": url}]})
    assert message.status_code == 422 and error_code(message) == "url_scheme_not_allowed", message.text
    avatar = http.patch(f"/v1/users/{room.alice}", headers=bearer(room.alice), json={"avatar_url": url})
    assert avatar.status_code == 422 and error_code(avatar) == "url_scheme_not_allowed", avatar.text


def test_http_https_and_mailto_links_are_kept(room, http):
    parts = [{"type": "url", "url": u} for u in ("http://example.com", "https://example.com/x", "mailto:a@example.com")]
    message = http.post(f"/v1/rooms/{room.id}/messages", headers=bearer(room.alice), json={"parts": parts})
    assert message.status_code == 201 and message.json()["parts"] == parts
    avatar = http.patch(f"/v1/users/{room.alice}", headers=bearer(room.alice), json={"avatar_url": "https://example.com/a.png"})
    assert avatar.status_code == 200 and avatar.json()["avatar_url"] == "https://example.com/a.png"


# The user directory

def listed(http, headers):
    ids, after = [], ""
    while True:
        answer = http.get("/v1/users", params={"after": after, "limit": 100}, headers=headers)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        ids += [user["id"] for user in page["users"]]
        if page["next_after"] is None:
            return ids
        after = page["next_after"]


def test_users_list_only_people_they_share_a_room_with(room, http):
    assert sorted(listed(http, bearer(room.bob))) == sorted([room.alice, room.bob, room.eve])
    assert listed(http, bearer(room.carol)) == [room.carol]
    everyone = listed(http, {"Authorization": basic(APP_A)})
    assert {room.alice, room.bob, room.eve, room.carol} <= set(everyone)


# /metrics

def test_metrics_need_the_token(chat, http):
    refused = http.get("/metrics")
    assert refused.status_code == 401 and error_code(refused) == "metrics_token_required"
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert http.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    answer = http.get("/metrics", headers={"Authorization": "Bearer " + METRICS_TOKEN})
    assert answer.status_code == 200 and "parley_channels_connections" in answer.text


def test_metrics_without_a_configured_token_are_closed():
    server = ChatServer().start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}") as client:
            assert client.get("/metrics").status_code == 401
    finally:
        server.stop()
    flagged = ChatServer(extra_args=["--metrics-token", "from-the-flag"]).start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{flagged.port}") as client:
            assert client.get("/metrics", headers={"Authorization": "Bearer from-the-flag"}).status_code == 200
    finally:
        flagged.stop()


# Admins

def test_the_last_admin_cannot_leave_while_others_remain(room, http):
    leave = http.post(f"/v1/rooms/{room.id}/leave", headers=bearer(room.alice))
    assert leave.status_code == 409 and error_code(leave) == "last_admin", leave.text
    demote = http.patch(f"/v1/rooms/{room.id}/members/{room.alice}", headers=bearer(room.alice), json={"role": "member"})
    assert demote.status_code == 409 and error_code(demote) == "last_admin"
    removed = http.delete(f"/v1/rooms/{room.id}/members/{room.alice}", headers={"Authorization": basic(APP_A)})
    assert removed.status_code == 409 and error_code(removed) == "last_admin"
    # Once bob is admin too, alice may go.
    assert http.patch(f"/v1/rooms/{room.id}/members/{room.bob}", headers=bearer(room.alice), json={"role": "admin"}).status_code == 200
    assert http.post(f"/v1/rooms/{room.id}/leave", headers=bearer(room.alice)).status_code == 204


# Request shapes

def test_client_id_longer_than_512_is_refused(room, http):
    def send(client_id):
        return http.post(f"/v1/rooms/{room.id}/messages", headers=bearer(room.alice),
                         json={"client_id": client_id, "parts": [{"type": "text", "text": "hi"}]})
    long = send("x" * 513)
    assert long.status_code == 400 and error_code(long) == "invalid_request", long.text
    assert send("x" * 512).status_code == 201


def test_parts_with_unknown_keys_are_refused_by_name(room, http):
    answer = http.post(f"/v1/rooms/{room.id}/messages", headers=bearer(room.alice),
                       json={"parts": [{"type": "text", "text": "hi", "sender_id": room.bob}]})
    assert answer.status_code == 400 and error_code(answer) == "invalid_request"
    assert "sender_id" in answer.json()["error"]["message"]


# Typing

def error_data(message):
    data = message["data"]
    return json.loads(data) if isinstance(data, str) else data


def test_a_forged_typing_sender_is_not_believed(chat, room, http):
    bob = chat.realtime(mint(APP_A, room.bob)).join(room.channel)
    eve = chat.realtime(mint(APP_A, room.eve), sign_in=True).join(room.channel)
    anonymous_eve = chat.realtime(mint(APP_A, room.eve)).join(room.channel)
    try:
        # Eve claims to be alice in the data: refused (4301), nobody hears it.
        eve.send("client-typing", {"user_id": room.alice}, channel=room.channel)
        assert error_data(eve.expect("pusher:error"))["code"] == 4301
        anonymous_eve.send("client-typing", {"sender_id": room.alice}, channel=room.channel)
        assert error_data(anonymous_eve.expect("pusher:error"))["code"] == 4301
        assert bob.nothing("client-typing", wait=1.0)
        # What eve may send arrives stamped with the user the server verified at sign-in.
        eve.send("client-typing", {"typing": True}, channel=room.channel)
        event = bob.expect("client-typing", room.channel)
        assert event["user_id"] == room.eve
        # The chat's own typing event names the token's user, whatever the body says.
        answer = http.post(f"/v1/rooms/{room.id}/typing", headers=bearer(room.eve), json={"user_id": room.alice})
        assert answer.status_code == 204
        assert bob.event("typing", room.channel) == {"room_id": room.id, "user_id": room.eve}
    finally:
        for client in (bob, eve, anonymous_eve):
            client.close()
