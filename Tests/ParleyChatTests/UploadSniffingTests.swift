import ParleyWire
import Testing

@testable import ParleyChat

/// Uploads are typed by their bytes: a declared type that lies is refused, images must decode
/// and stay within the size limits, and downloads never let a browser render a non-image.
@Suite("Upload sniffing")
struct UploadSniffingTests {
    let a = ChatHarness.appA
    static let html = Array("<!doctype html><html><script>alert(document.cookie)</script></html>".utf8)

    /// A PNG signature and IHDR chunk claiming `width` × `height`, and a few bytes after it.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 6, 0, 0, 0] + [0, 0, 0, 0] + Array("IDAT".utf8)
    }

    func upload(_ h: ChatHarness, room: String, _ bytes: [UInt8], type: String) async -> Reply {
        await h.call(.POST, "/v1/rooms/\(room)/attachments", as: .user("alice", app: a), body: bytes, headers: [("Content-Type", type)])
    }

    @Test func sniffsByLeadingBytes() throws {
        #expect(SniffedMediaType.sniff(Self.pngHeader(width: 1, height: 1)) == .png)
        #expect(SniffedMediaType.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(SniffedMediaType.sniff(Array("GIF89a....".utf8)) == .gif)
        #expect(SniffedMediaType.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(SniffedMediaType.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == .wav)
        #expect(SniffedMediaType.sniff(Array("%PDF-1.7".utf8)) == .pdf)
        #expect(SniffedMediaType.sniff(Self.html) == .text)
        #expect(SniffedMediaType.sniff(Array("héllo\r\n\twörld".utf8)) == .text)
        #expect(SniffedMediaType.sniff([0x68, 0x69, 0x00]) == .binary)  // NUL
        #expect(SniffedMediaType.sniff([0x68, 0xC3]) == .binary)  // cut UTF-8
        #expect(SniffedMediaType.sniff([0x1B, 0x5B, 0x32, 0x4A]) == .binary)  // escape sequence
    }

    @Test func declaredTypesMustAgree() {
        #expect(SniffedMediaType.png.accepts(declared: "image/png") && SniffedMediaType.png.accepts(declared: "IMAGE/PNG"))
        #expect(SniffedMediaType.png.accepts(declared: "application/octet-stream"))
        #expect(!SniffedMediaType.png.accepts(declared: "image/jpeg") && !SniffedMediaType.png.accepts(declared: "text/html"))
        #expect(SniffedMediaType.jpeg.accepts(declared: "image/jpg"))
        #expect(!SniffedMediaType.text.accepts(declared: "image/png") && !SniffedMediaType.text.accepts(declared: "image/svg+xml"))
        #expect(SniffedMediaType.text.accepts(declared: "text/html") && SniffedMediaType.text.accepts(declared: "application/json"))
        #expect(!SniffedMediaType.binary.accepts(declared: "image/gif") && !SniffedMediaType.binary.accepts(declared: "text/plain"))
        #expect(!SniffedMediaType.binary.accepts(declared: "application/pdf"))
        #expect(SniffedMediaType.binary.accepts(declared: "application/zip"))
    }

    @Test func htmlDeclaredAsAnImageIsRefused() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let refused = await upload(h, room: room, Self.html, type: "image/png")
            #expect(refused.status == 422 && refused.errorCode == "content_type_mismatch", "\(refused.json)")
            #expect(
                await upload(h, room: room, Self.pngHeader(width: 2, height: 2), type: "image/gif").errorCode == "content_type_mismatch")
            #expect(await upload(h, room: room, [0, 1, 2, 3], type: "image/webp").errorCode == "content_type_mismatch")
            #expect(await upload(h, room: room, Array("%PDF-1.4".utf8), type: "image/png").errorCode == "content_type_mismatch")
        }
    }

    @Test func htmlIsStoredAsPlainTextAndOfferedAsADownload() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let stored = await upload(h, room: room, Self.html, type: "text/html; charset=utf-8")
            #expect(stored.status == 201 && stored["content_type"]?.stringValue == "text/plain; charset=utf-8", "\(stored.json)")
            let id = try #require(stored["id"]?.stringValue)
            let download = await h.call(.GET, "/v1/attachments/\(id)/content", as: .user("alice", app: a))
            #expect(download.status == 200 && download.body == Self.html)
            #expect(download.headers.first("Content-Type") == "text/plain; charset=utf-8")
            #expect(download.headers.first("Content-Disposition") == "attachment; filename=\"\(id)\"")
            #expect(download.headers.first("X-Content-Type-Options") == "nosniff")
            // A recognised container keeps the declared type of its family.
            let zip = await upload(h, room: room, [0x50, 0x4B, 0x03, 0x04, 0x00, 0x9F], type: "application/zip")
            #expect(zip.status == 201 && zip["content_type"]?.stringValue == "application/zip")
        }
    }

    @Test func imagesAreServedInlineAndTypedByTheirBytes() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let png = try #require(Base64.decode(TestImages.pngRGB.base64))
            let stored = await upload(h, room: room, png, type: "application/octet-stream")
            #expect(stored.status == 201 && stored["content_type"]?.stringValue == "image/png" && stored["width"]?.intValue == 3)
            let id = try #require(stored["id"]?.stringValue)
            let download = await h.call(.GET, "/v1/attachments/\(id)/content", as: .user("alice", app: a))
            #expect(download.headers.first("Content-Disposition") == "inline")
        }
    }

    @Test func hugeAndUndecodableImagesAreRefused() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let huge = await upload(h, room: room, Self.pngHeader(width: 16_777_215, height: 16_777_215), type: "image/png")
            #expect(huge.status == 422 && huge.errorCode == "image_too_large", "\(huge.json)")
            #expect(await upload(h, room: room, Self.pngHeader(width: 16_385, height: 1), type: "image/png").errorCode == "image_too_large")
            // Each side within bounds, but 10,001 × 10,000 is over 100 megapixels.
            #expect(
                await upload(h, room: room, Self.pngHeader(width: 10_001, height: 10_000), type: "image/png").errorCode == "image_too_large"
            )
            #expect(await upload(h, room: room, Self.pngHeader(width: 16_384, height: 6_103), type: "image/png").status == 201)
            #expect(await upload(h, room: room, Self.pngHeader(width: 0, height: 5), type: "image/png").errorCode == "invalid_image")
            #expect(
                await upload(h, room: room, Array(Self.pngHeader(width: 5, height: 5).prefix(18)), type: "image/png").errorCode
                    == "invalid_image")
            #expect(await upload(h, room: room, [0xFF, 0xD8, 0xFF, 0xD9], type: "image/jpeg").errorCode == "invalid_image")
            #expect(await upload(h, room: room, Array("GIF89a".utf8) + [0, 0, 0, 0], type: "image/gif").errorCode == "invalid_image")
        }
    }
}
