"""Image thumbnails through the REST API on both engines: PNGs written here with zlib and
struct (RGB, grayscale, palette, RGBA), and JPEGs, GIFs and WebPs (still, transparent,
animated) encoded by Pillow are uploaded; the attachment's `thumbnail_url` (its signed download
URL with `thumb=1`) serves, without credentials, a JPEG whose frame header — parsed here — has
the longest side at most 320 and the original's aspect ratio, never larger than the original;
a JPEG's EXIF orientation turns it; Pillow decodes it to the original's colours (an
animation's first frame). An image whose pixels do not decode (truncated, corrupt, a header
declaring a decompression bomb), and anything that is not an image, has no thumbnail;
erasing the uploader and deleting the room remove the thumbnail files too. A server with a
`thumbnails` config section makes them as it says, and counts their bytes in the app's quota;
SIGHUP reads the section again for later uploads, and keeps the settings in service when the
new ones are bad."""
import io
import json
import signal
import struct
import subprocess
import zlib

import pytest
from PIL import Image

from chat_support import APP_A, APP_B, ChatServer, basic, create_user, mint, two_engine_chat_fixture, unique
from log_tail import LogTail


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


def pillow(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def halves(size, left=(220, 20, 20), right=(20, 20, 220)):
    image = Image.new("RGB", size, left)
    image.paste(right, (size[0] // 2, 0, size[0], size[1]))
    return image


def animation(fmt, **options):
    """Three 500×250 frames: red, green, blue."""
    frames = [Image.new("RGB", (500, 250), colour) for colour in ((220, 20, 20), (20, 220, 20), (20, 20, 220))]
    return pillow(frames[0], fmt, save_all=True, append_images=frames[1:], duration=80, loop=0, **options)


def transparent_square(size):
    """Opaque blue with its left half fully transparent."""
    image = Image.new("RGBA", (size, size), (20, 20, 220, 255))
    image.paste((0, 0, 0, 0), (0, 0, size // 2, size))
    return image


GIF = pillow(halves((640, 400)), "GIF")
WEBP_LOSSY = pillow(halves((1000, 300)), "WEBP", quality=85)
WEBP_LOSSLESS = pillow(halves((300, 900)), "WEBP", lossless=True)


def gif_screen(data, width, height):
    return data[:6] + struct.pack("<HH", width, height) + data[10:]


def webp_lossless_size(data, width, height):
    assert data[12:16] == b"VP8L", data[:16]
    (bits,) = struct.unpack("<I", data[21:25])
    bits = (bits & ~0x0FFFFFFF) | (width - 1) | (height - 1) << 14
    return data[:21] + struct.pack("<I", bits) + data[25:]


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


def fetch_thumbnail(server, meta):
    """The thumbnail behind `thumbnail_url`, fetched without credentials and decoded by Pillow."""
    thumb = server.request("GET", meta["thumbnail_url"])
    assert thumb.status == 200, thumb
    assert thumb.headers["Content-Type"] == "image/jpeg"
    image = Image.open(io.BytesIO(thumb.body))
    assert image.format == "JPEG"
    assert image.size == jpeg_size(thumb.body)
    return image.convert("RGB"), thumb.body


def near(actual, expected, within=40):
    return all(abs(a - e) <= within for a, e in zip(actual, expected))


@pytest.mark.parametrize("data,content_type,expected,left,right", [
    (GIF, "image/gif", (320, 200), (220, 20, 20), (20, 20, 220)),
    (WEBP_LOSSY, "image/webp", (320, 96), (220, 20, 20), (20, 20, 220)),
    (WEBP_LOSSLESS, "image/webp", (107, 320), (220, 20, 20), (20, 20, 220)),
    (pillow(transparent_square(400), "WEBP", lossless=True), "image/webp", (320, 320), (255, 255, 255), (20, 20, 220)),
    (pillow(transparent_square(400), "GIF"), "image/gif", (320, 320), (255, 255, 255), (20, 20, 220)),
    (animation("GIF"), "image/gif", (320, 160), (220, 20, 20), (220, 20, 20)),
    (animation("WEBP", lossless=True), "image/webp", (320, 160), (220, 20, 20), (220, 20, 20)),
    (animation("WEBP", quality=80), "image/webp", (320, 160), (220, 20, 20), (220, 20, 20)),
], ids=["gif", "webp-lossy", "webp-lossless", "webp-alpha", "gif-transparent", "gif-animated", "webp-animated",
        "webp-animated-lossy"])
def test_gif_and_webp_uploads_get_a_jpeg_thumbnail_pillow_decodes(chat, data, content_type, expected, left, right):
    alice, bob, room = room_of(chat)
    meta = upload(chat, alice, room, data, content_type)
    assert meta["content_type"] == content_type
    assert meta["thumbnail_url"] == meta["download_url"] + "&thumb=1"
    fresh = chat.ok("GET", f"/v1/attachments/{meta['id']}", token=mint(APP_A, bob))
    image, _ = fetch_thumbnail(chat, fresh)
    assert image.size == expected
    width, height = image.size
    # Transparent pixels are white; an animation shows its first frame.
    assert near(image.getpixel((width // 8, height // 2)), left), image.getpixel((width // 8, height // 2))
    assert near(image.getpixel((width * 7 // 8, height // 2)), right), image.getpixel((width * 7 // 8, height // 2))
    assert chat.request("GET", fresh["download_url"]).body == data


def test_gifs_and_webps_that_do_not_decode_have_no_thumbnail(chat):
    alice, _, room = room_of(chat)
    corrupt_gif = GIF[:40] + b"\xff" * (len(GIF) - 40)
    cases = [
        (GIF[:len(GIF) // 2], "image/gif"),  # truncated in the pixels
        (corrupt_gif, "image/gif"),
        (gif_screen(GIF, 16_000, 3_000), "image/gif"),  # 48 megapixels declared: over the 40 megapixel limit
        (WEBP_LOSSY[:len(WEBP_LOSSY) // 2], "image/webp"),
        (WEBP_LOSSLESS[:30] + b"\x00" * (len(WEBP_LOSSLESS) - 30), "image/webp"),
        (webp_lossless_size(WEBP_LOSSLESS, 16_000, 3_000), "image/webp"),
    ]
    for data, content_type in cases:
        meta = upload(chat, alice, room, data, content_type)
        assert "thumbnail_url" not in meta, meta
        refused = chat.request("GET", meta["download_url"] + "&thumb=1")
        assert (refused.status, refused.error_code) == (404, "attachment_not_found")
    assert "thumbnail_url" in upload(chat, alice, room, GIF, "image/gif")


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


def start_configured(database=None):
    """A server whose config sets every `thumbnails` key, and gives APP_B a small quota."""
    server = ChatServer(database=database)
    config = json.loads((server.work / "apps.json").read_text())
    config["apps"][1]["limits"] = {"attachment_quota_bytes": QUOTA}
    config["thumbnails"] = {"enabled": True, "max_side": 64, "max_source_pixels": 1_000_000, "jpeg_quality": 30}
    (server.work / "apps.json").write_text(json.dumps(config))
    return server.start()


configured = two_engine_chat_fixture(start=start_configured)


QUOTA = 200_000


def app_room(server, app):
    alice = unique("alice")
    create_user(server, app, alice)
    room = server.ok("POST", "/v1/rooms", token=mint(app, alice), json_body={"kind": "private", "member_ids": []})
    return alice, room["id"]


def upload_to(server, app, user, room, data, content_type):
    return server.request("POST", f"/v1/rooms/{room}/attachments", token=mint(app, user), body=data,
                          headers={"Content-Type": content_type})


def test_the_thumbnails_config_sets_side_quality_and_pixel_limit(configured):
    alice, room = app_room(configured, APP_A)
    meta = upload_to(configured, APP_A, alice, room, GIF, "image/gif").json
    image, body = fetch_thumbnail(configured, meta)
    assert image.size == (64, 40)
    # Quality 30 shows in the quantisation table libjpeg-turbo writes (quality 80 would be about 3×
    # finer): its first entry, the DC step, is 16 × 50/30 ≈ 27.
    dqt = body.index(b"\xff\xdb")
    assert body[dqt + 5] >= 20, body[dqt + 5]
    # 1001×1000 is over max_source_pixels (1,000,000); 1000×1000 is not.
    over = pillow(Image.new("RGB", (1001, 1000), (20, 220, 20)), "GIF")
    assert "thumbnail_url" not in upload_to(configured, APP_A, alice, room, over, "image/gif").json
    at_limit = pillow(Image.new("RGB", (1000, 1000), (20, 220, 20)), "GIF")
    assert "thumbnail_url" in upload_to(configured, APP_A, alice, room, at_limit, "image/gif").json


def test_thumbnail_bytes_count_towards_the_quota_and_are_freed_with_the_room(configured):
    # The thumbnail's size with these settings, learnt in the app without a small quota.
    alice_a, room_a = app_room(configured, APP_A)
    learnt = upload_to(configured, APP_A, alice_a, room_a, WEBP_LOSSY, "image/webp").json
    thumbnail = len(configured.request("GET", learnt["thumbnail_url"]).body)
    assert thumbnail > 0
    alice, room = app_room(configured, APP_B)
    assert upload_to(configured, APP_B, alice, room, WEBP_LOSSY, "image/webp").status == 201
    left = QUOTA - len(WEBP_LOSSY) - thumbnail
    # A file that would fit were the thumbnail not counted is refused; one byte less fits exactly.
    refused = upload_to(configured, APP_B, alice, room, b"\x07" * (left + 1), "application/octet-stream")
    assert (refused.status, refused.error_code) == (507, "storage_quota_exceeded"), refused
    assert upload_to(configured, APP_B, alice, room, b"\x07" * left, "application/octet-stream").status == 201
    assert upload_to(configured, APP_B, alice, room, b"\x07", "application/octet-stream").status == 507
    # Deleting the room frees the file, its thumbnail and the filler: the whole quota fits again.
    configured.ok("DELETE", f"/v1/rooms/{room}", auth=basic(APP_B))
    owner, fresh = app_room(configured, APP_B)
    assert upload_to(configured, APP_B, owner, fresh, b"\x07" * QUOTA, "application/octet-stream").status == 201


def test_thumbnails_turned_off_are_not_made():
    server = ChatServer()
    config = json.loads((server.work / "apps.json").read_text())
    config["thumbnails"] = {"enabled": False}
    (server.work / "apps.json").write_text(json.dumps(config))
    server.start()
    try:
        alice, room = app_room(server, APP_A)
        for data, content_type in [(GIF, "image/gif"), (WEBP_LOSSY, "image/webp"), (SMALL, "image/png")]:
            meta = upload_to(server, APP_A, alice, room, data, content_type).json
            assert "thumbnail_url" not in meta
        assert thumbnail_files(server) == []
    finally:
        server.stop()


def test_a_bad_thumbnails_setting_stops_the_server_with_its_path():
    server = ChatServer()
    config = json.loads((server.work / "apps.json").read_text())
    config["thumbnails"] = {"jpeg_quality": 0}
    (server.work / "apps.json").write_text(json.dumps(config))
    result = subprocess.run([str(server.binary), "serve", "--port", "0", "--data-dir", str(server.work / "data"),
                             "--config", str(server.work / "apps.json")], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "$.thumbnails.jpeg_quality" in result.stderr and "1...100" in result.stderr, result.stderr


def start_reloadable(database=None):
    """A server whose config sets a 64-pixel side, its output followed by a LogTail."""
    server = ChatServer(database=database)
    write_thumbnails(server, {"max_side": 64})
    server.start()
    server.tail = LogTail(server.process)
    return server


reloadable = two_engine_chat_fixture(start=start_reloadable)


def write_thumbnails(server, section):
    config = json.loads((server.work / "apps.json").read_text())
    config["thumbnails"] = section
    (server.work / "apps.json").write_text(json.dumps(config))


def reload(server, expect):
    """Sends SIGHUP and returns the next log line containing `expect`."""
    mark = server.tail.mark()
    server.process.send_signal(signal.SIGHUP)
    line = server.tail.wait_for(expect, after=mark)
    assert line is not None, f"no {expect!r} line after SIGHUP: {server.tail.lines[mark:]}"
    return line


def test_sighup_reloads_the_thumbnails_settings_and_keeps_them_when_bad(reloadable):
    alice, room = app_room(reloadable, APP_A)

    def side():
        meta = upload_to(reloadable, APP_A, alice, room, GIF, "image/gif").json
        return fetch_thumbnail(reloadable, meta)[0].size[0] if "thumbnail_url" in meta else None

    assert side() == 64
    write_thumbnails(reloadable, {"max_side": 100})
    assert "max_side=100" in reload(reloadable, "thumbnails reloaded")
    assert side() == 100
    write_thumbnails(reloadable, {"max_side": 5})
    refused = reload(reloadable, "thumbnails reload refused")
    assert "$.thumbnails.max_side" in refused, refused
    assert side() == 100, "the settings in service stay"
    write_thumbnails(reloadable, {"enabled": False})
    reload(reloadable, "thumbnails reloaded")
    assert side() is None
