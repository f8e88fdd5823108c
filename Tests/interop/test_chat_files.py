"""Files of any type through the REST API on both engines: a PDF, an MP3, a ZIP (made by Python's
zipfile) and a text file with a hostile name are uploaded, sent as `file` message parts, and
downloaded through their signed URLs without credentials, byte for byte, with a safe
`Content-Disposition` (RFC 6266 / 5987) and `nosniff`; an expired or forged signature is
refused; an app's own size and type limits give 413 and 415."""
import base64
import hashlib
import hmac
import io
import json
import subprocess
import time
import zipfile
from urllib.parse import quote, unquote

import pytest

from chat_support import APP_A, APP_B, BIN_DIR, ChatServer, create_user, mint, two_engine_chat_fixture, unique

STRICT_LIMITS = {"max_attachment_bytes": 2048, "attachment_types": ["application/pdf", "audio/*", "image/*"]}


def start(database=None):
    server = ChatServer(database=database)
    config = json.loads((server.work / "apps.json").read_text())
    config["apps"][1]["limits"] = STRICT_LIMITS
    (server.work / "apps.json").write_text(json.dumps(config))
    return server.start()


chat = two_engine_chat_fixture(start)


def room_of(server, app=APP_A):
    alice, bob = unique("alice"), unique("bob")
    for user in (alice, bob):
        create_user(server, app, user)
    room = server.ok("POST", "/v1/rooms", token=mint(app, alice), json_body={"kind": "private", "member_ids": [bob]})
    return alice, bob, room["id"]


def upload(server, app, user, room, data, content_type, name=None):
    path = f"/v1/rooms/{room}/attachments" + (f"?name={quote(name, safe='')}" if name is not None else "")
    return server.request("POST", path, token=mint(app, user), body=data, headers={"Content-Type": content_type})


def sample_zip():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hello.txt", "hello from a zip " * 20)
    return buffer.getvalue()


MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes([0xFF, 0xFB, 0x90, 0x64]) + bytes(range(256)) * 4
PDF = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


@pytest.mark.parametrize("data,declared,stored,name", [
    (PDF, "application/pdf", "application/pdf", "Quarterly report.pdf"),
    (MP3, "audio/mpeg", "audio/mpeg", "song.mp3"),
    (sample_zip(), "application/zip", "application/zip", "archive.zip"),
])
def test_a_file_round_trips_through_a_message_and_its_signed_url(chat, data, declared, stored, name):
    alice, bob, room = room_of(chat)
    created = upload(chat, APP_A, alice, room, data, declared, name)
    assert created.status == 201, created
    meta = created.json
    assert (meta["content_type"], meta["size"], meta["name"]) == (stored, len(data), name)
    message = chat.ok("POST", f"/v1/rooms/{room}/messages", token=mint(APP_A, alice),
                      json_body={"parts": [{"type": "file", "attachment_id": meta["id"]}]})
    part = message["parts"][0]
    assert part == {"type": "file", "attachment_id": meta["id"], "name": name, "content_type": stored,
                    "size": len(data), "url": f"/v1/attachments/{meta['id']}/content"}
    history = chat.ok("GET", f"/v1/rooms/{room}/messages", token=mint(APP_A, bob))
    assert history["messages"][-1]["parts"] == [part]
    # bob fetches a signed URL and downloads without any credentials.
    signed = chat.ok("GET", f"/v1/attachments/{meta['id']}", token=mint(APP_A, bob))["download_url"]
    download = chat.request("GET", signed)
    assert download.status == 200 and download.body == data
    assert download.headers["Content-Type"] == stored
    assert download.headers["X-Content-Type-Options"] == "nosniff"
    assert download.headers["Content-Disposition"] == f'attachment; filename="{name}"'
    # With the reader's own credentials, the part's url works too.
    assert chat.request("GET", part["url"], token=mint(APP_A, bob)).body == data


def test_a_hostile_name_and_type_are_made_harmless(chat):
    alice, bob, room = room_of(chat)
    hostile = '../../<img src=x onerror=alert(1)>\r\nSet-Cookie: a=b; "naïve\u202egnp.html'
    body = "<script>alert(document.cookie)</script>\n".encode()
    created = upload(chat, APP_A, alice, room, body, "text/html", hostile)
    assert created.status == 201, created
    meta = created.json
    assert meta["content_type"] == "text/plain; charset=utf-8"
    name = meta["name"]
    assert "/" not in name and "\r" not in name and "\n" not in name and "\u202e" not in name
    download = chat.request("GET", chat.ok("GET", f"/v1/attachments/{meta['id']}", token=mint(APP_A, bob))["download_url"])
    assert download.body == body
    assert download.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert download.headers["X-Content-Type-Options"] == "nosniff"
    assert download.headers["Content-Security-Policy"] == "sandbox"
    disposition = download.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="') and all(ord(c) < 127 for c in disposition)
    fallback, extended = disposition.split("; filename*=UTF-8''")
    assert fallback.count('"') == 2 and "Set-Cookie" not in download.headers
    assert unquote(extended, encoding="utf-8") == name


def sign(app, attachment, expires, secret=None):
    message = f"download\n{app['id']}\n{attachment}\n{expires}".encode()
    digest = hmac.new((secret or app["secret"]).encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_expired_and_forged_signatures_are_refused(chat):
    alice, _, room = room_of(chat)
    attachment = upload(chat, APP_A, alice, room, PDF, "application/pdf", "a.pdf").json["id"]
    base = f"/v1/attachments/{attachment}/content?app={APP_A['id']}"
    future = int(time.time()) + 120
    assert chat.request("GET", f"{base}&expires={future}&signature={sign(APP_A, attachment, future)}").body == PDF
    past = int(time.time()) - 5
    expired = chat.request("GET", f"{base}&expires={past}&signature={sign(APP_A, attachment, past)}")
    assert expired.status == 401 and expired.error_code == "url_expired"
    forged = chat.request("GET", f"{base}&expires={future}&signature={sign(APP_A, attachment, future, secret='guess')}")
    assert forged.status == 401 and forged.error_code == "url_signature_invalid"
    stretched = chat.request("GET", f"{base}&expires={future + 3600}&signature={sign(APP_A, attachment, future)}")
    assert stretched.status == 401 and stretched.error_code == "url_signature_invalid"


def test_each_app_limits_size_and_type(chat):
    alice, _, room = room_of(chat, APP_B)
    assert upload(chat, APP_B, alice, room, PDF, "application/pdf").status == 201
    too_big = upload(chat, APP_B, alice, room, PDF + b" " * 2048, "application/pdf")
    assert too_big.status == 413 and too_big.error_code == "payload_too_large", too_big
    forbidden = upload(chat, APP_B, alice, room, sample_zip(), "application/zip")
    assert forbidden.status == 415 and forbidden.error_code == "attachment_type_not_allowed", forbidden
    # APP_A keeps the default (10 MiB): a bigger body is refused before it is stored.
    a_alice, _, a_room = room_of(chat)
    assert upload(chat, APP_A, a_alice, a_room, b"\0" * (10 * 1024 * 1024 + 1), "application/octet-stream").status == 413
    # The server is healthy after all that.
    assert upload(chat, APP_A, a_alice, a_room, MP3, "audio/mpeg").status == 201


def test_check_config_knows_the_file_and_erase_settings(tmp_path):
    app = {"id": "301", "key": "ok-key", "secret": "ok-secret",
           "limits": {"max_attachment_bytes": 1048576, "attachment_types": ["image/*", "application/pdf"], "erase_mode": "anonymise"}}
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"apps": [app]}))
    out = subprocess.run([str(BIN_DIR / "parley"), "check-config", str(good)],
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    for limits, complaint in [({"attachment_types": ["text/<html>"]}, "attachment_types[0]"),
                              ({"erase_mode": "shred"}, "erase_mode"),
                              ({"max_attachment_bytes": 0}, "max_attachment_bytes")]:
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"apps": [dict(app, limits=limits)]}))
        out = subprocess.run([str(BIN_DIR / "parley"), "check-config", str(bad)],
                             capture_output=True, text=True, timeout=20)
        assert out.returncode == 1 and complaint in out.stderr, (limits, out.stderr)
