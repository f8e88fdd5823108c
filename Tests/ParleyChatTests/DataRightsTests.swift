import ParleyStore
import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Data rights: export, erase, audit")
struct DataRightsTests {
    let a = ChatHarness.appA

    /// alice writes in a room with bob: two messages (one quoted by bob), a reaction, a PDF upload.
    func populate(_ h: ChatHarness) async throws -> (room: String, attachment: String, seq: Int64) {
        await h.createUsers("alice", "bob")
        let room = await h.createRoom("alice", members: ["bob"])
        let first = await h.send("alice", room: room, "hello from alice")
        await h.send("alice", room: room, "second")
        let seq = try #require(first["seq"]?.intValue)
        let firstID = try #require(first["id"]?.intValue)
        let quote = await h.call(
            .POST, "/v1/rooms/\(room)/messages", as: .user("bob", app: a),
            json: .object([
                "parts": .array([.object(["type": .string("text"), "text": .string("quoting")])]), "quoted_message_id": .int(firstID)
            ]))
        #expect(quote.status == 201, "\(quote.json)")
        #expect(
            await h.call(.PUT, "/v1/rooms/\(room)/messages/\(firstID)/reactions/%F0%9F%91%8D", as: .user("alice", app: a)).status == 200)
        let stored = await h.call(
            .POST, "/v1/rooms/\(room)/attachments?name=cv.pdf", as: .user("alice", app: a), body: Array("%PDF-1.4 alice".utf8),
            headers: [("Content-Type", "application/pdf")])
        return (room, try #require(stored["id"]?.stringValue), Int64(seq))
    }

    @Test(arguments: ChatEngine.available)
    func exportHoldsEverythingTheUserWroteInPages(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            let (room, attachment, seq) = try await populate(h)
            #expect(await h.call(.GET, "/v1/users/alice/export", as: .user("bob", app: a)).errorCode == "not_self")
            let first = await h.call(.GET, "/v1/users/alice/export?limit=1", as: .user("alice", app: a))
            #expect(first.status == 200, "\(first.json)")
            #expect(first["profile"]?["id"]?.stringValue == "alice")
            #expect(first["memberships"]?.arrayValue?.first?["room_id"]?.stringValue == room)
            #expect(first["read_cursors"]?.arrayValue?.first?["room_id"]?.stringValue == room)
            #expect(
                first["reactions"]?.arrayValue?.first?["emoji"]?.stringValue == "👍"
                    && first["reactions"]?.arrayValue?.first?["seq"]?.intValue == Int(seq))
            #expect(first["attachments"]?.arrayValue?.first?["id"]?.stringValue == attachment)
            #expect(first["attachments"]?.arrayValue?.first?["download_url"]?.stringValue?.contains("signature=") == true)
            #expect(first["messages"]?.arrayValue?.count == 1 && first["messages"]?.arrayValue?.first?["room_id"]?.stringValue == room)
            let after = try #require(first["next_after"]?.intValue)
            let second = await h.call(.GET, "/v1/users/alice/export?limit=1&after=\(after)", as: .app(a))
            #expect(second["messages"]?.arrayValue?.first?["parts"]?.arrayValue?.first?["text"]?.stringValue == "second")
            #expect(second["profile"] == nil)
            #expect(second["next_after"] == .null)
            // Only the first page is an export in the audit log.
            let audit = await h.call(.GET, "/v1/audit", as: .app(a))
            let actions = audit["entries"]?.arrayValue?.map { "\($0["action"]?.stringValue ?? "") \($0["actor"]?.stringValue ?? "")" }
            #expect(actions == ["user.export user:alice"])
            #expect(await h.call(.GET, "/v1/audit", as: .user("alice", app: a)).errorCode == "app_credentials_required")
        }
    }

    @Test(arguments: ChatEngine.available)
    func eraseDeletesContentEndsAccessAndIsIdempotent(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            let (room, attachment, _) = try await populate(h)
            let token = h.token("alice")
            #expect(await h.call(.POST, "/v1/users/alice/erase", as: .user("alice", app: a)).errorCode == "app_credentials_required")
            let erased = await h.call(.POST, "/v1/users/alice/erase", as: .app(a), json: .object(["mode": .string("delete")]))
            #expect(erased.status == 200, "\(erased.json)")
            #expect(erased["messages"]?.intValue == 2 && erased["reactions"]?.intValue == 1 && erased["attachments_removed"]?.intValue == 1)
            #expect(erased["user_removed"] == .bool(true))
            // Tombstones under the anonymous author; bob's quote shows the original as deleted.
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a))
            let messages = try #require(history["messages"]?.arrayValue)
            #expect(!history.body.contains(subsequence: Array("hello from alice".utf8)))
            #expect(!history.body.contains(subsequence: Array("\"alice\"".utf8)), "\(history.json)")
            #expect(messages.filter { $0["sender_id"]?.stringValue == UserErasure.anonymousAuthor }.count == 2)
            #expect(messages.last?["quoted_message"]?["deleted"] == .bool(true))
            #expect(messages.last?["quoted_message"]?["sender_id"]?.stringValue == UserErasure.anonymousAuthor)
            #expect(await h.call(.GET, "/v1/attachments/\(attachment)", as: .user("bob", app: a)).errorCode == "attachment_not_found")
            // Access ends at once: the old token is refused, the sockets were told.
            #expect(await h.call(.GET, "/v1/me", as: .bearer(token)).errorCode == "token_revoked")
            #expect(h.publisher.disconnectedUsers.contains("alice"))
            #expect(h.publisher.names(on: ChatEvent.roomChannel(room)).contains("member.left"))
            // Again: nothing left to change, and still audited.
            let again = await h.call(.POST, "/v1/users/alice/erase", as: .app(a))
            #expect(again.status == 200 && again["messages"]?.intValue == 0 && again["reactions"]?.intValue == 0)
            #expect(again["user_removed"] == .bool(false) && again["attachments_removed"]?.intValue == 0)
            let audit = await h.call(.GET, "/v1/audit", as: .app(a))
            #expect(audit["entries"]?.arrayValue?.compactMap { $0["action"]?.stringValue } == ["user.erase", "user.erase"])
            #expect(audit["entries"]?.arrayValue?.first?["detail"]?["mode"]?.stringValue == "delete")
        }
    }

    @Test(arguments: ChatEngine.available)
    func anonymiseKeepsTheTextUnderAnAnonymousAuthor(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            let (room, attachment, _) = try await populate(h)
            let erased = await h.call(.POST, "/v1/users/alice/erase", as: .app(a), json: .object(["mode": .string("anonymise")]))
            #expect(erased.status == 200 && erased["attachments_anonymised"]?.intValue == 1, "\(erased.json)")
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a))
            let texts = history["messages"]?.arrayValue?.filter { $0["sender_id"]?.stringValue == "~erased" }.compactMap {
                $0["parts"]?.arrayValue?.first?["text"]?.stringValue
            }
            #expect(texts == ["hello from alice", "second"])
            #expect(!history.body.contains(subsequence: Array("\"alice\"".utf8)), "\(history.json)")
            let kept = await h.call(.GET, "/v1/attachments/\(attachment)", as: .user("bob", app: a))
            #expect(kept["uploader_id"]?.stringValue == "~erased")
            #expect(await h.call(.GET, "/v1/users/alice", as: .app(a)).errorCode == "user_not_found")
            #expect(
                await h.call(.POST, "/v1/users/alice/erase", as: .app(a), json: .object(["mode": .string("shred")])).errorCode
                    == "invalid_request")
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
