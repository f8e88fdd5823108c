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
}
