import ParleyChannels
import ParleyStore
import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Files of any type")
struct FileTests {
    let a = ChatHarness.appA

    func upload(_ h: ChatHarness, room: String, _ bytes: [UInt8], type: String, name: String? = nil) async -> Reply {
        let query = name.map { "?name=" + DownloadSigner.percentEncode($0) } ?? ""
        return await h.call(
            .POST, "/v1/rooms/\(room)/attachments\(query)", as: .user("alice", app: a), body: bytes, headers: [("Content-Type", type)])
    }

    @Test func containerFormatsAreRecognisedByTheirBytes() {
        #expect(SniffedMediaType.sniff([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]) == .zip)
        #expect(SniffedMediaType.sniff([0x1F, 0x8B, 0x08, 0x00]) == .gzip)
        #expect(SniffedMediaType.sniff(Array("ID3\u{4}\u{0}".utf8)) == .mp3)
        #expect(SniffedMediaType.sniff([0xFF, 0xFB, 0x90, 0x64]) == .mp3)
        #expect(SniffedMediaType.sniff(Array("OggS\u{0}\u{2}".utf8)) == .ogg)
        #expect(SniffedMediaType.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == .wav)
        #expect(SniffedMediaType.sniff(Array("fLaC\u{0}\u{0}".utf8)) == .flac)
        #expect(SniffedMediaType.sniff(Array("\u{0}\u{0}\u{0}\u{18}ftypmp42".utf8)) == .mp4)
        #expect(SniffedMediaType.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x01]) == .webm)
        #expect(SniffedMediaType.sniff([0xFF, 0x00, 0x01, 0x02]) == .binary)
        #expect(SniffedMediaType.sniff(Array("ID3 tags are explained below".utf8)) == .text)
        #expect(SniffedMediaType.sniff(Array("OggS and fLaC and xxxxftyp".utf8)) == .text)
    }

    @Test func theStoredTypeIsPreciseButNeverActive() {
        let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        #expect(SniffedMediaType.zip.accepts(declared: docx) && SniffedMediaType.zip.storedType(declared: docx) == docx)
        #expect(SniffedMediaType.zip.storedType(declared: "application/octet-stream") == "application/zip")
        #expect(!SniffedMediaType.zip.accepts(declared: "image/png") && !SniffedMediaType.zip.accepts(declared: "text/html"))
        #expect(!SniffedMediaType.mp3.accepts(declared: "video/mp4"))
        #expect(SniffedMediaType.mp4.storedType(declared: "audio/mp4") == "audio/mp4")
        #expect(SniffedMediaType.binary.storedType(declared: "application/xhtml+xml") == "application/octet-stream")
        #expect(SniffedMediaType.binary.storedType(declared: "application/javascript") == "application/octet-stream")
        #expect(SniffedMediaType.binary.storedType(declared: "application/x-msdownload") == "application/x-msdownload")
        #expect(SniffedMediaType.text.storedType(declared: "text/html") == "text/plain; charset=utf-8")
        for active in ["text/xml", "application/xml", "image/svg+xml", "application/rss+xml", "application/xslt+xml", "text/css"] {
            #expect(SniffedMediaType.binary.storedType(declared: active) == "application/octet-stream", "\(active)")
        }
    }

    @Test func namesAreCleanedAndEncodedForContentDisposition() {
        #expect(FileName("../../etc/passwd")?.value == "passwd")
        #expect(FileName("C:\\Users\\x\\report.pdf")?.value == "report.pdf")
        #expect(FileName("a\r\nSet-Cookie: x.txt")?.value == "a__Set-Cookie: x.txt")
        #expect(FileName("invoice\u{202E}fdp.exe")?.value == "invoice_fdp.exe")
        #expect(FileName("  ") == nil && FileName("dir/") == nil && FileName("..") == nil)
        #expect(FileName(String(repeating: "é", count: 200))?.value == String(repeating: "é", count: 127))
        #expect(FileName.contentDisposition(inline: false, name: "plan.pdf", fallback: "id1") == "attachment; filename=\"plan.pdf\"")
        #expect(
            FileName.contentDisposition(inline: false, name: "naïve \"q\" 100%.txt", fallback: "id1")
                == "attachment; filename=\"na_ve _q_ 100_.txt\"; filename*=UTF-8''na%C3%AFve%20%22q%22%20100%25.txt")
        #expect(FileName.contentDisposition(inline: true, name: nil, fallback: "id1") == "inline")
        #expect(FileName.contentDisposition(inline: false, name: nil, fallback: "id1") == "attachment; filename=\"id1\"")
    }

    @Test(arguments: ChatEngine.available)
    func aFileTravelsWithItsNameSizeAndTypeInAMessage(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "eve")
            let room = await h.createRoom("alice", members: ["bob"])
            let other = await h.createRoom("eve")
            let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + Array(repeating: 7, count: 60)
            let stored = await upload(h, room: room, zip, type: "application/zip", name: "Résumé (final).zip")
            #expect(stored.status == 201 && stored["name"]?.stringValue == "Résumé (final).zip", "\(stored.json)")
            #expect(stored["content_type"]?.stringValue == "application/zip" && stored["size"]?.intValue == zip.count)
            let id = try #require(stored["id"]?.stringValue)
            let part: JSONValue = .object(["type": .string("file"), "attachment_id": .string(id)])
            let sent = await h.call(
                .POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: .object(["parts": .array([part])]))
            #expect(sent.status == 201, "\(sent.json)")
            let file = sent["parts"]?.arrayValue?.first
            #expect(file?["type"]?.stringValue == "file" && file?["name"]?.stringValue == "Résumé (final).zip")
            #expect(file?["size"]?.intValue == zip.count && file?["content_type"]?.stringValue == "application/zip")
            #expect(file?["url"]?.stringValue == "/v1/attachments/\(id)/content")
            // History (written straight to bytes) carries the same part, and the model reads it back.
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a))
            #expect(history["messages"]?.arrayValue?.first?["parts"]?.arrayValue?.first == file)
            let decoded = try MessagePart(json: history["messages"]?.arrayValue?.first?["parts"]?.arrayValue?.first)
            #expect(decoded.file?.name == "Résumé (final).zip" && decoded.file?.size == Int64(zip.count))
            // The download names the file, in ASCII and in UTF-8.
            let download = await h.call(.GET, "/v1/attachments/\(id)/content", as: .user("bob", app: a))
            #expect(download.body == zip && download.headers.first("X-Content-Type-Options") == "nosniff")
            #expect(
                download.headers.first("Content-Disposition")
                    == "attachment; filename=\"R_sum_ (final).zip\"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29.zip")
            // A file part must name an upload of the same room.
            let elsewhere = await h.call(
                .POST, "/v1/rooms/\(other)/messages", as: .user("eve", app: a), json: .object(["parts": .array([part])]))
            #expect(elsewhere.errorCode == "validation_failed")
            let missing: JSONValue = .object(["type": .string("file"), "attachment_id": .string("nope")])
            #expect(
                await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: .object(["parts": .array([missing])]))
                    .errorCode == "validation_failed")
        }
    }

    @Test func eachAppHasItsOwnSizeAndTypeLimits() async throws {
        var strict = ChatHarness.appA
        strict.limits.maxAttachmentBytes = 64
        strict.limits.attachmentTypes = ["image/*", "application/pdf"]
        try await ChatHarness.with(apps: [strict, ChatHarness.appB]) { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let pdf = Array("%PDF-1.7 small".utf8)
            #expect(await upload(h, room: room, pdf, type: "application/pdf").status == 201)
            let big = await upload(h, room: room, pdf + Array(repeating: 0x20, count: 64), type: "application/pdf")
            #expect(big.status == 413 && big.errorCode == "payload_too_large")
            let text = await upload(h, room: room, Array("hello".utf8), type: "text/plain")
            #expect(text.status == 415 && text.errorCode == "attachment_type_not_allowed", "\(text.json)")
        }
        #expect(AppLimits().allowsAttachment("application/zip"))
        var limits = AppLimits()
        limits.attachmentTypes = ["audio/*", "application/zip"]
        #expect(limits.allowsAttachment("audio/mpeg") && limits.allowsAttachment("application/zip"))
        #expect(!limits.allowsAttachment("text/plain; charset=utf-8") && !limits.allowsAttachment("application/gzip"))
    }

    @Test func theUploadRouteAcceptsTheLargestAppLimit() async throws {
        var big = ChatHarness.appA
        big.limits.maxAttachmentBytes = 50 << 20
        try await ChatHarness.with(apps: [big, ChatHarness.appB]) { h in
            #expect(h.service.uploadBodyLimit == 50 << 20)
        }
    }
}
