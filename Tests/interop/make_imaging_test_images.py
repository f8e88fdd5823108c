"""Writes Tests/ParleyImagingTests/ImagingTestImages.swift: small real PNG, JPEG, GIF and WebP
files (Pillow-encoded) of known content for the thumbnail codec tests, and decompression-bomb
headers. Run with the test venv: python Tests/interop/make_imaging_test_images.py"""
import base64
import io
import pathlib
import struct
import zlib

from PIL import Image


def halves(size, mode="RGB", left=(255, 0, 0), right=(0, 0, 255)):
    """Left half one colour, right half another."""
    image = Image.new(mode, size, left)
    image.paste(right, (size[0] // 2, 0, size[0], size[1]))
    return image


def save(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bomb(width, height):
    """A PNG whose header (with a valid CRC) declares width × height RGB pixels; one tiny IDAT."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


def jpeg_with_size(data, width, height):
    """The JPEG with its first baseline frame header claiming width × height."""
    at = data.index(b"\xff\xc0")
    return data[:at + 5] + struct.pack(">HH", height, width) + data[at + 9:]


def transparent_corner():
    """4×4 opaque green with the top-left pixel fully transparent black."""
    image = Image.new("RGBA", (4, 4), (0, 255, 0, 255))
    image.putpixel((0, 0), (0, 0, 0, 0))
    return image


def exif_rotated():
    """40×20, left half red, stored sideways: orientation 6 (turn 90° clockwise to show)."""
    exif = Image.Exif()
    exif[0x0112] = 6
    return save(halves((40, 20)), "JPEG", quality=95, exif=exif.tobytes())


def top_bottom(size, top=(255, 0, 0), bottom=(0, 0, 255)):
    """Top half one colour, bottom half another (an interlaced GIF's row order shows)."""
    image = Image.new("RGB", size, top)
    image.paste(bottom, (0, size[1] // 2, size[0], size[1]))
    return image


def animation(fmt, **options):
    """Two 20×10 frames: red, then blue."""
    frames = [Image.new("RGB", (20, 10), colour) for colour in ((255, 0, 0), (0, 0, 255))]
    return save(frames[0], fmt, save_all=True, append_images=frames[1:], duration=100, loop=0, **options)


def gif_screen(data, width, height):
    """The GIF with its logical screen claiming width × height."""
    return data[:6] + struct.pack("<HH", width, height) + data[10:]


def gif_first_frame(data, width, height):
    """The GIF with its first image descriptor claiming width × height (the screen unchanged)."""
    at = data.index(b"\x2c", 13)
    return data[:at + 5] + struct.pack("<HH", width, height) + data[at + 9:]


def webp_lossless_size(data, width, height):
    """A simple lossless WebP (`VP8L` first) with its header claiming width × height."""
    assert data[12:16] == b"VP8L" and data[20] == 0x2F, data[:24]
    (bits,) = struct.unpack("<I", data[21:25])
    bits = (bits & ~0x0FFFFFFF) | (width - 1) | (height - 1) << 14
    return data[:21] + struct.pack("<I", bits) + data[25:]


def webp_canvas(data, width, height):
    """An extended WebP (`VP8X` first) with its canvas claiming width × height."""
    assert data[12:16] == b"VP8X", data[:16]
    return data[:24] + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little") + data[30:]


jpeg640 = save(halves((640, 480)), "JPEG", quality=90)
gif400 = save(halves((400, 200)), "GIF")
webpLossless = save(halves((400, 200)), "WEBP", lossless=True)
webpAnimated = animation("WEBP", lossless=True)
IMAGES = [
    ("pngHalves", save(halves((400, 200)), "PNG")),
    ("pngGray", save(Image.linear_gradient("L").resize((10, 6)), "PNG")),
    ("pngGrayAlpha", save(Image.new("LA", (5, 5), (128, 255)), "PNG")),
    ("pngPalette", save(halves((17, 5)).convert("P"), "PNG")),
    ("pngSixteenBit", save(Image.new("I;16", (6, 3), 65535), "PNG")),
    ("pngTransparentCorner", save(transparent_corner(), "PNG")),
    ("jpegHalves", jpeg640),
    ("jpegGray", save(Image.new("L", (8, 8), 200), "JPEG", quality=95)),
    ("jpegProgressive", save(halves((50, 30)), "JPEG", quality=90, progressive=True)),
    ("jpegExifRotated", exif_rotated()),
    ("pngBomb", png_bomb(50_000, 50_000)),
    ("jpegBomb", jpeg_with_size(jpeg640, 65_000, 65_000)),
    ("gifHalves", gif400),
    ("gifTopBottom", save(top_bottom((16, 32)), "GIF", interlace=True)),
    ("gifTransparentCorner", save(transparent_corner(), "GIF")),
    ("gifAnimated", animation("GIF")),
    ("gifBomb", gif_screen(gif400, 65_000, 65_000)),
    ("gifFrameBomb", gif_first_frame(gif400, 65_000, 65_000)),
    ("gifZeroSize", gif_screen(gif400, 0, 200)),
    ("webpLossy", save(halves((400, 200)), "WEBP", quality=90)),
    ("webpLossless", webpLossless),
    ("webpTransparentCorner", save(transparent_corner(), "WEBP", lossless=True)),
    ("webpAnimated", webpAnimated),
    ("webpBomb", webp_lossless_size(webpLossless, 16_384, 16_384)),
    ("webpAnimatedBomb", webp_canvas(webpAnimated, 16_384, 16_384)),
]

lines = [
    "// Generated by Tests/interop/make_imaging_test_images.py (Pillow); do not edit.",
    "import Foundation",
    "",
    "/// Small PNG, JPEG, GIF and WebP files of known content, and decompression-bomb headers.",
    "enum ImagingTestImages {",
]
for name, data in IMAGES:
    lines.append(f'    static let {name} = bytes("{base64.b64encode(data).decode()}")')
lines += [
    "",
    "    private static func bytes(_ base64: String) -> [UInt8] { [UInt8](Data(base64Encoded: base64)!) }",
    "}",
]
target = pathlib.Path(__file__).resolve().parents[1] / "ParleyImagingTests" / "ImagingTestImages.swift"
target.write_text("\n".join(lines) + "\n")
print(f"wrote {target} ({sum(len(d) for _, d in IMAGES)} image bytes)")
