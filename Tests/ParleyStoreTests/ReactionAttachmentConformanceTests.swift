import Testing

@testable import ParleyStore

@Suite("Conformance: reactions and attachments")
struct ReactionAttachmentConformanceTests {
    @Test(arguments: TestEngine.available)
    func reactionsAreCountedPerEmoji(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob", "mallory"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let message = try await store.send("a", room.id, from: "alice", "vote").message
            let plain = try await store.send("a", room.id, from: "alice", "no reactions").message

            let first = try await store.addReaction(app: "a", room: room.id, message: message.id, user: "bob", emoji: "👍")
            #expect(first.changed)
            #expect(first.seq == message.seq)
            #expect(first.reactions == [ReactionCount(emoji: "👍", count: 1)])
            let repeated = try await store.addReaction(app: "a", room: room.id, message: message.id, user: "bob", emoji: "👍")
            #expect(!repeated.changed)
            #expect(repeated.reactions == [ReactionCount(emoji: "👍", count: 1)], "one user counts once per emoji")
            _ = try await store.addReaction(app: "a", room: room.id, message: message.id, user: "alice", emoji: "👍")
            let both = try await store.addReaction(app: "a", room: room.id, message: message.id, user: "alice", emoji: "🎉")
            #expect(
                both.reactions == [ReactionCount(emoji: "🎉", count: 1), ReactionCount(emoji: "👍", count: 2)].sorted { $0.emoji < $1.emoji })

            let history = try await store.history(app: "a", room: room.id, .latest())
            #expect(history.first { $0.id == message.id }?.reactions == both.reactions)
            #expect(history.first { $0.id == plain.id }?.reactions == [])
            #expect(try await store.message(app: "a", room: room.id, id: message.id).reactions == both.reactions)

            let removed = try await store.removeReaction(app: "a", room: room.id, message: message.id, user: "bob", emoji: "👍")
            #expect(removed.changed)
            #expect(removed.reactions.first { $0.emoji == "👍" }?.count == 1)
            #expect(try await !store.removeReaction(app: "a", room: room.id, message: message.id, user: "bob", emoji: "👍").changed)

            await expectStoreError(.notMember) {
                try await store.addReaction(app: "a", room: room.id, message: message.id, user: "mallory", emoji: "👎")
            }
            await expectStoreError(.notFound) {
                try await store.addReaction(app: "a", room: room.id, message: 777_777, user: "bob", emoji: "👍")
            }
            _ = try await store.deleteMessage(app: "a", room: room.id, id: plain.id)
            await expectStoreError(.conflict) {
                try await store.addReaction(app: "a", room: room.id, message: plain.id, user: "bob", emoji: "👍")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func attachmentMetadata(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "mallory"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice")
            let new = NewAttachment(
                id: "att-1", roomID: room.id, uploaderID: "alice", contentType: "image/webp",
                size: 123_456_789_012, width: 640, height: 480, storagePath: "attachments/a/att-1")
            let created = try await store.createAttachment(app: "a", new)
            #expect(created.size == 123_456_789_012)
            #expect(try await store.attachment(app: "a", id: "att-1") == created)
            await expectStoreError(.alreadyExists) { try await store.createAttachment(app: "a", new) }
            await expectStoreError(.notFound) { try await store.attachment(app: "b", id: "att-1") }

            var outsider = new
            outsider.id = "att-2"
            outsider.uploaderID = "mallory"
            await expectStoreError(.notMember) { try await store.createAttachment(app: "a", outsider) }
            var negative = new
            negative.id = "att-3"
            negative.size = -1
            await expectStoreError(.invalidArgument) { try await store.createAttachment(app: "a", negative) }
            var noSize = new
            noSize.id = "doc"
            noSize.width = nil
            noSize.height = nil
            noSize.contentType = "application/pdf"
            #expect(try await store.createAttachment(app: "a", noSize).width == nil)
            #expect(try await store.attachment(app: "a", id: "doc").height == nil)

            #expect(try await store.deleteAttachment(app: "a", id: "att-1") == created)
            await expectStoreError(.notFound) { try await store.attachment(app: "a", id: "att-1") }
            await expectStoreError(.notFound) { try await store.deleteAttachment(app: "a", id: "att-1") }
        }
    }

    @Test(arguments: TestEngine.available)
    func thumbnailBytesCountTowardsTheQuotaUntilTheirAttachmentGoes(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let other = try await store.makeRoom("a", creator: "bob")
            func upload(
                _ id: String, by user: String, in room: String, size: Int64, thumbnail: Int64, quota: Int64? = nil
            )
                async throws -> StoredAttachment
            {
                try await store.createAttachment(
                    app: "a",
                    NewAttachment(
                        id: id, roomID: room, uploaderID: user, contentType: "image/gif", size: size, storagePath: "attachments/a/\(id)",
                        thumbnailSize: thumbnail), quotaBytes: quota)
            }
            let first = try await upload("one", by: "alice", in: room.id, size: 100, thumbnail: 30)
            #expect(first.thumbnailSize == 30)
            #expect(try await store.attachment(app: "a", id: "one").thumbnailSize == 30)
            #expect(try await store.attachmentBytes(app: "a") == 130)
            // 130 held; 50 + 25 more passes a quota of 200, 50 + 20 reaches it exactly.
            await expectStoreError(.limitReached) {
                try await upload("two", by: "alice", in: room.id, size: 50, thumbnail: 25, quota: 200)
            }
            _ = try await upload("two", by: "alice", in: room.id, size: 50, thumbnail: 20, quota: 200)
            _ = try await upload("three", by: "bob", in: other.id, size: 10, thumbnail: 5)
            _ = try await upload("four", by: "bob", in: room.id, size: 7, thumbnail: 3)
            #expect(try await store.attachmentBytes(app: "a") == 225)
            await expectStoreError(.invalidArgument) { try await upload("bad", by: "alice", in: room.id, size: 1, thumbnail: -1) }

            // Freed with the row: deleted, its uploader erased, its room deleted.
            _ = try await store.deleteAttachment(app: "a", id: "two")
            #expect(try await store.attachmentBytes(app: "a") == 155)
            let erasure = try await store.eraseUser(
                app: "a", user: "alice", mode: .delete, audit: AppAuditEntry(actor: "admin", action: "user_erased", target: "alice"))
            #expect(erasure.removedAttachments.map(\.thumbnailSize) == [30])
            #expect(try await store.attachmentBytes(app: "a") == 25)
            let deleted = try await store.deleteRoom(app: "a", id: other.id)
            #expect(deleted.attachments.map(\.thumbnailSize) == [5])
            #expect(try await store.attachmentBytes(app: "a") == 10)
        }
    }
}
