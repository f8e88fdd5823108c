"""Image thumbnails through the REST API on both engines: PNGs written here with zlib and
struct (RGB, grayscale, palette, RGBA) and JPEGs encoded by Pillow are uploaded; the
attachment's `thumbnail_url` (its signed download URL with `thumb=1`) serves, without
credentials, a JPEG whose frame header — parsed here — has the longest side at most 320 and
the original's aspect ratio, never larger than the original; a JPEG's EXIF orientation turns
it. An image whose pixels do not decode, and anything that is not PNG or JPEG, has no
thumbnail; erasing the uploader and deleting the room remove the thumbnail files too."""
import io
import struct
import zlib

import pytest
from PIL import Image

from chat_support import APP_A, basic, create_user, mint, two_engine_chat_fixture, unique


chat = two_engine_chat_fixture()


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def make_png(width, height, color_type, pixel, palette=None):
    """A PNG of 8-bit samples, every pixel `pixel(x, y)` (a bytes value), filter type 0 per row."""
    rows = b"".join(b"\0" + b"".join(pixel(x, y) for x in range(width)) for y in range(height))
    chunks = [png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))]
    if palette is not None:
        chunks.append(png_chunk(b"PLTE", b"".join(palette)))
    chunks += [png_chunk(b"IDAT", zlib.compress(rows)), png_chunk(b"IEND", b"")]
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


def make_jpeg(width, height, orientation=None):
    image = Image.new("RGB", (width, height), (200, 30, 30))
    out = io.BytesIO()
    exif = Image.Exif()
    if orientation is not None:
        exif[0x0112] = orientation
    image.save(out, "JPEG", quality=85, exif=exif.tobytes())
    return out.getvalue()


def jpeg_size(data):
    """(width, height) from the first start-of-frame segment of a JPEG."""
    assert data[:2] == b"\xff\xd8", data[:16]
    at = 2
    while at + 4 <= len(data):
        assert data[at] == 0xFF, f"no marker at {at}"
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length
    raise AssertionError("no start-of-frame segment")


RGB = make_png(800, 300, 2, lambda x, y: bytes((x % 256, y % 256, 128)))
GRAY = make_png(90, 1000, 0, lambda x, y: bytes((y % 256,)))
PALETTE = make_png(200, 200, 3, lambda x, y: bytes(((x // 50) % 2,)), palette=[b"\xff\x00\x00", b"\x00\x00\xff"])
RGBA = make_png(640, 640, 6, lambda x, y: bytes((0, 255, 0, 255 if x > y else 0)))
SMALL = make_png(30, 20, 2, lambda x, y: b"\x10\x20\x30")


def room_of(server):
    alice, bob = unique("alice"), unique("bob")
    for user in (alice, bob):
        create_user(server, APP_A, user)
    room = server.ok("POST", "/v1/rooms", token=mint(APP_A, alice), json_body={"kind": "private", "member_ids": [bob]})
    return alice, bob, room["id"]


def upload(server, user, room, data, content_type):
    created = server.request("POST", f"/v1/rooms/{room}/attachments", token=mint(APP_A, user), body=data,
                             headers={"Content-Type": content_type})
    assert created.status == 201, created
    return created.json


def thumbnail_files(server):
    return sorted((server.work / "data" / "attachments").rglob("*.thumb.jpg"))


@pytest.mark.parametrize("data,content_type,expected", [
    (RGB, "image/png", (320, 120)),
    (GRAY, "image/png", (29, 320)),
    (PALETTE, "image/png", (200, 200)),
    (RGBA, "image/png", (320, 320)),
    (SMALL, "image/png", (30, 20)),
    (make_jpeg(1200, 900), "image/jpeg", (320, 240)),
    (make_jpeg(1000, 500, orientation=6), "image/jpeg", (160, 320)),
], ids=["rgb", "gray", "palette", "rgba", "small", "jpeg", "jpeg-exif-rotated"])
def test_an_image_gets_a_signed_jpeg_thumbnail_of_at_most_320_pixels(chat, data, content_type, expected):
    alice, bob, room = room_of(chat)
    meta = upload(chat, alice, room, data, content_type)
    assert meta["thumbnail_url"] == meta["download_url"] + "&thumb=1"
    # bob reads the metadata, then fetches the thumbnail without credentials.
    fresh = chat.ok("GET", f"/v1/attachments/{meta['id']}", token=mint(APP_A, bob))
    thumb = chat.request("GET", fresh["thumbnail_url"])
    assert thumb.status == 200, thumb
    assert thumb.headers["Content-Type"] == "image/jpeg"
    assert thumb.headers["X-Content-Type-Options"] == "nosniff"
    assert jpeg_size(thumb.body) == expected
    # With a member's credentials the plain content URL takes thumb=1 too; the file itself is unchanged.
    with_token = chat.request("GET", f"/v1/attachments/{meta['id']}/content?thumb=1", token=mint(APP_A, bob))
    assert with_token.body == thumb.body
    assert chat.request("GET", fresh["download_url"]).body == data


def test_the_thumbnail_url_is_signed_like_the_download(chat):
    alice, _, room = room_of(chat)
    meta = upload(chat, alice, room, RGB, "image/png")
    forged = meta["thumbnail_url"].replace("signature=", "signature=x")
    assert chat.request("GET", forged).error_code == "url_signature_invalid"
    assert chat.request("GET", f"/v1/attachments/{meta['id']}/content?thumb=1").error_code == "authentication_required"
    assert chat.request("GET", meta["download_url"] + "&thumb=yes").error_code == "invalid_request"
    outsider = unique("eve")
    create_user(chat, APP_A, outsider)
    assert chat.request("GET", f"/v1/attachments/{meta['id']}/content?thumb=1", token=mint(APP_A, outsider)).status == 403


def test_images_that_do_not_decode_and_other_files_have_no_thumbnail(chat):
    alice, _, room = room_of(chat)
    # A valid header over pixels that are not zlib data: stored (its header decodes), no thumbnail.
    broken = RGB[:RGB.index(b"IDAT") - 4] + png_chunk(b"IDAT", b"not zlib at all") + png_chunk(b"IEND", b"")
    for data, content_type in [(broken, "image/png"), (RGB[:200], "image/png"), (b"%PDF-1.7\n%%EOF\n", "application/pdf")]:
        meta = upload(chat, alice, room, data, content_type)
        assert "thumbnail_url" not in meta
        refused = chat.request("GET", meta["download_url"] + "&thumb=1")
        assert (refused.status, refused.error_code) == (404, "attachment_not_found")
    # The server is healthy afterwards.
    assert "thumbnail_url" in upload(chat, alice, room, SMALL, "image/png")


def test_erasing_the_uploader_and_deleting_the_room_remove_thumbnails(chat):
    alice, bob, room = room_of(chat)
    before = set(thumbnail_files(chat))
    mine = upload(chat, alice, room, SMALL, "image/png")
    theirs = upload(chat, bob, room, RGB, "image/png")
    made = set(thumbnail_files(chat)) - before
    assert {path.name for path in made} == {f"{mine['id']}.thumb.jpg", f"{theirs['id']}.thumb.jpg"}
    chat.ok("POST", f"/v1/users/{alice}/erase", auth=basic(APP_A), json_body={"mode": "delete"})
    assert {path.name for path in set(thumbnail_files(chat)) - before} == {f"{theirs['id']}.thumb.jpg"}
    chat.ok("DELETE", f"/v1/rooms/{room}", auth=basic(APP_A))
    assert set(thumbnail_files(chat)) - before == set()
