import ParleyWire
import Testing

@testable import ParleyChat

#if canImport(Glibc)
import Glibc
#endif

@Suite("Attachments")
struct AttachmentTests {
    let a = ChatHarness.appA

    func upload(_ h: ChatHarness, _ user: String, room: String, _ bytes: [UInt8], type: String?) async -> Reply {
        await h.call(
            .POST, "/v1/rooms/\(room)/attachments", as: .user(user, app: a), body: bytes,
            headers: type.map { [("Content-Type", $0)] } ?? [])
    }

    @Test(arguments: ChatEngine.available)
    func imagesComeBackByteIdenticalWithTheirSize(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "eve")
            let room = await h.createRoom("alice", members: ["bob"])
            for image in TestImages.all {
                let bytes = try #require(Base64.decode(image.base64))
                let stored = await upload(h, "alice", room: room, bytes, type: image.contentType)
                #expect(stored.status == 201)
                #expect(stored["width"]?.intValue == image.width && stored["height"]?.intValue == image.height, "\(image.name)")
                #expect(stored["size"]?.intValue == bytes.count && stored["content_type"]?.stringValue == image.contentType)
                let id = try #require(stored["id"]?.stringValue)

                let download = await h.call(.GET, "/v1/attachments/\(id)/content", as: .user("bob", app: a))
                #expect(download.status == 200 && download.body == bytes)
                #expect(download.headers.first("Content-Type") == image.contentType)
                #expect(download.headers.first("X-Content-Type-Options") == "nosniff")
                #expect(await h.call(.GET, "/v1/attachments/\(id)/content", as: .user("eve", app: a)).errorCode == "not_member")
                #expect(await h.call(.GET, "/v1/attachments/\(id)", as: .user("eve", app: a)).errorCode == "not_member")
                #expect(await h.call(.GET, "/v1/attachments/\(id)/content").errorCode == "authentication_required")
            }
            // A file that is no image has no size, and an attachment part can reference it.
            let document = await upload(h, "alice", room: room, Array("%PDF-1.7 hello".utf8), type: "application/pdf")
            #expect(document.status == 201 && document["width"] == .null && document["height"] == .null)
            let part: JSONValue = .array([.object(["type": .string("attachment"), "attachment_id": document["id"] ?? .null])])
            let message = await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("bob", app: a), json: .object(["parts": part]))
            #expect(message.status == 201 && message["parts"] == part)
            let missing: JSONValue = .array([.object(["type": .string("attachment"), "attachment_id": .string("nope")])])
            let refused = await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("bob", app: a), json: .object(["parts": missing]))
            #expect((400..<500).contains(refused.status))
        }
    }

    @Test func uploadsAreCheckedBeforeStoring() async throws {
        var limits = ChatLimits()
        limits.attachmentBytes = 100
        try await ChatHarness.with(limits: limits) { h in
            await h.createUsers("alice", "eve")
            let room = await h.createRoom("alice")
            #expect(await upload(h, "alice", room: room, Array(repeating: 1, count: 101), type: "application/octet-stream").status == 413)
            #expect(await upload(h, "alice", room: room, [1, 2, 3], type: nil).status == 415)
            #expect(await upload(h, "alice", room: room, [1, 2, 3], type: "nonsense").status == 415)
            #expect(await upload(h, "alice", room: room, [], type: "image/png").errorCode == "invalid_request")
            #expect(await upload(h, "eve", room: room, [1, 2, 3], type: "image/png").errorCode == "not_member")
            #expect(await upload(h, "alice", room: "nope", [1, 2, 3], type: "image/png").errorCode == "room_not_found")
            // Nothing reached the disk for the refused uploads.
            #expect(fileCount(h.dataDirectory + "/attachments") == 0)
        }
    }

    @Test(arguments: ChatEngine.available)
    func signedURLsWorkWithoutHeadersUntilTheyExpire(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let bytes = try #require(Base64.decode(TestImages.gif.base64))
            let stored = await upload(h, "alice", room: room, bytes, type: "image/gif")
            let url = try #require(stored["download_url"]?.stringValue)
            #expect(url.hasPrefix("/v1/attachments/"))
            let plain = await h.call(.GET, url)
            #expect(plain.status == 200 && plain.body == bytes)

            let tampered = url.replacingLast(of: "signature=", with: "signature=A")
            #expect(await h.call(.GET, tampered).errorCode == "url_signature_invalid")
            let otherID = url.replacingLast(of: "/content", with: "x/content")
            #expect(await h.call(.GET, otherID).errorCode == "url_signature_invalid")
            let longer = url.replacingLast(of: "expires=", with: "expires=9")
            #expect(await h.call(.GET, longer).errorCode == "url_signature_invalid")

            h.clock.advance(seconds: h.service.configuration.limits.downloadURLSeconds + 1)
            let expired = await h.call(.GET, url)
            #expect(expired.status == 401 && expired.errorCode == "url_expired")
            // Fetching the metadata again gives a fresh URL.
            let id = try #require(stored["id"]?.stringValue)
            let fresh = try #require(await h.call(.GET, "/v1/attachments/\(id)", as: .user("alice", app: a))["download_url"]?.stringValue)
            #expect(await h.call(.GET, fresh).body == bytes)
        }
    }

    @Test func deletingARoomRemovesItsFiles() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let stored = await upload(h, "alice", room: room, [1, 2, 3], type: "application/octet-stream")
            #expect(fileCount(h.dataDirectory + "/attachments") == 1)
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)", as: .user("alice", app: a)).status == 204)
            #expect(fileCount(h.dataDirectory + "/attachments") == 0)
            #expect(
                await h.call(.GET, "/v1/attachments/\(stored["id"]?.stringValue ?? "")", as: .app(a)).errorCode == "attachment_not_found")
        }
    }

    /// One attachment deleted by its uploader or a room moderator: its file and thumbnail go and
    /// their bytes leave the quota; a message naming it keeps its part, the downloads are gone.
    @Test(arguments: ChatEngine.available)
    func anAttachmentIsDeletedByItsUploaderOrARoomModerator(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "carol", "eve")
            let room = await h.createRoom("alice", members: ["bob", "carol"])
            let image = try #require(Base64.decode(TestImages.gif.base64))
            let first = try #require(await upload(h, "bob", room: room, image, type: TestImages.gif.contentType)["id"]?.stringValue)
            #expect(fileCount(h.dataDirectory + "/attachments") == 2, "the file and its thumbnail")
            let part: JSONValue = .array([.object(["type": .string("file"), "attachment_id": .string(first)])])
            let sent = await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("bob", app: a), json: .object(["parts": part]))
            #expect(sent.status == 201)

            #expect(await h.call(.DELETE, "/v1/attachments/\(first)", as: .user("carol", app: a)).errorCode == "not_author")
            #expect(await h.call(.DELETE, "/v1/attachments/\(first)", as: .user("eve", app: a)).errorCode == "not_member")
            #expect(h.publisher.names(on: "private-room-\(room)").contains("attachment.deleted") == false)
            #expect(await h.call(.DELETE, "/v1/attachments/\(first)", as: .user("bob", app: a)).status == 204)
            let announced = h.publisher.events(on: "private-room-\(room)").filter { $0.name == "attachment.deleted" }
            #expect(announced.map { $0.data["attachment_id"]?.stringValue } == [first], "the room hears of it once")
            #expect(announced.first?.data["room_id"]?.stringValue == room)
            #expect(fileCount(h.dataDirectory + "/attachments") == 0)
            #expect(try await h.store.attachmentBytes(app: a.id) == 0)
            #expect(await h.call(.GET, "/v1/attachments/\(first)/content", as: .user("bob", app: a)).errorCode == "attachment_not_found")
            #expect(await h.call(.DELETE, "/v1/attachments/\(first)", as: .user("bob", app: a)).errorCode == "attachment_not_found")
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("carol", app: a))
            let kept = history["messages"]?.arrayValue?.last?["parts"]?.arrayValue?.first
            #expect(kept?["attachment_id"]?.stringValue == first && kept?["size"]?.intValue == image.count, "the part stays as sent")
            let again = await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("bob", app: a), json: .object(["parts": part]))
            #expect(again.status == 422)

            let second = try #require(await upload(h, "bob", room: room, [1, 2, 3], type: "application/octet-stream")["id"]?.stringValue)
            #expect(await h.call(.DELETE, "/v1/attachments/\(second)", as: .user("alice", app: a)).status == 204, "the owner moderates")
            #expect(fileCount(h.dataDirectory + "/attachments") == 0)
            let audit = await h.call(.GET, "/v1/rooms/\(room)/audit", as: .user("alice", app: a))["entries"]?.arrayValue ?? []
            let entry = audit.first { $0["action"]?.stringValue == "attachment_deleted" }
            #expect(entry?["target_user_id"]?.stringValue == "bob" && entry?["actor_id"]?.stringValue == "alice")
            #expect(audit.filter { $0["action"]?.stringValue == "attachment_deleted" }.count == 1, "the uploader's own is not recorded")
        }
    }

    @Test func storagePathsCannotEscape() {
        #expect(AttachmentFiles.relativePath(app: "../x", id: "a/b") == "attachments/.2e.2e.2fx/a.2fb")
        #expect(AttachmentFiles.safeComponent("") == ".empty")
    }
}

extension String {
    func replacingLast(of target: String, with replacement: String) -> String {
        guard let range = ranges(of: target).last else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}

/// Counts regular files under a directory tree.
func fileCount(_ path: String) -> Int {
    guard let directory = opendir(path) else { return 0 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        if name == "." || name == ".." { continue }
        if entry.pointee.d_type == UInt8(DT_DIR) { count += fileCount(path + "/" + name) } else { count += 1 }
    }
    return count
}
