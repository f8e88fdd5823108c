import Testing

@testable import ParleyStore

@Suite("Conformance: messages")
struct MessageConformanceTests {
    private func prepare(_ store: SQLChatStore) async throws -> Room {
        for id in ["alice", "bob", "mallory"] { try await store.makeUser("a", id) }
        return try await store.makeRoom("a", creator: "alice", members: ["bob"])
    }

    @Test(arguments: TestEngine.available)
    func appendAssignsSeqAndRoundTripsParts(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let tricky = "quote \" backslash \\ newline \n tab \t bell \u{07} emoji 👩‍👩‍👧 accents éü 中文 nul-free"
            let parts: [MessagePart] = [.text(tricky), .url("https://example.com/?q=\"x\"")]
            let first = try await store.appendMessage(app: "a", room: room.id, NewMessage(senderID: "alice", parts: parts))
            #expect(first.created)
            #expect(first.message.seq == 1)
            #expect(first.message.parts == parts)
            let second = try await store.send("a", room.id, from: "bob", "two")
            #expect(second.message.seq == 2)
            #expect(second.message.id != first.message.id)

            let fetched = try await store.message(app: "a", room: room.id, id: first.message.id)
            #expect(fetched == first.message, "what is read back equals what was acknowledged")
            let afterSend = try await store.room(app: "a", id: room.id)
            #expect(afterSend.lastSeq == 2)
            #expect(afterSend.lastActivityAt >= afterSend.createdAt)
            await expectStoreError(.notFound) { try await store.message(app: "a", room: room.id, id: 999_999) }
            await expectStoreError(.notFound) { try await store.message(app: "b", room: room.id, id: first.message.id) }
        }
    }

    @Test(arguments: TestEngine.available)
    func appendRejectsOutsidersAndBadContent(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            await expectStoreError(.notMember) { try await store.send("a", room.id, from: "mallory", "let me in") }
            await expectStoreError(.notFound) { try await store.send("a", "no-room", from: "alice", "hello?") }
            await expectStoreError(.notFound) { try await store.send("b", room.id, from: "alice", "wrong app") }
            await expectStoreError(.invalidArgument) {
                try await store.appendMessage(app: "a", room: room.id, NewMessage(senderID: "alice", parts: []))
            }
            await expectStoreError(.invalidArgument) {
                try await store.appendMessage(
                    app: "a", room: room.id,
                    NewMessage(senderID: "alice", parts: Array(repeating: .text("x"), count: 11)))
            }
            await expectStoreError(.invalidArgument) {
                try await store.send("a", room.id, from: "alice", String(repeating: "y", count: 4_001))
            }
            let longest = try await store.send("a", room.id, from: "alice", String(repeating: "é", count: 4_000))
            #expect(longest.message.seq == 1, "rejected sends must not consume a seq")
            await expectStoreError(.invalidArgument) {
                try await store.appendMessage(app: "a", room: room.id, NewMessage(senderID: "alice", parts: [.attachment(id: "missing")]))
            }
            #expect(try await store.room(app: "a", id: room.id).lastSeq == 1)
        }
    }

    @Test(arguments: TestEngine.available)
    func attachmentPartsMustBelongToTheRoom(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let other = try await store.makeRoom("a", creator: "alice")
            _ = try await store.createAttachment(
                app: "a",
                NewAttachment(
                    id: "img", roomID: room.id, uploaderID: "bob",
                    contentType: "image/png", size: 3, width: 1, height: 1, storagePath: "a/img"))
            let sent = try await store.appendMessage(
                app: "a", room: room.id,
                NewMessage(senderID: "bob", parts: [.attachment(id: "img"), .text("look")]))
            #expect(sent.message.parts == [.attachment(id: "img"), .text("look")])
            await expectStoreError(.invalidArgument) {
                try await store.appendMessage(app: "a", room: other.id, NewMessage(senderID: "alice", parts: [.attachment(id: "img")]))
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func retriedSendReturnsTheOriginal(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let original = try await store.send("a", room.id, from: "alice", "once", clientID: "c-1")
            let retry = try await store.send("a", room.id, from: "alice", "once (retried)", clientID: "c-1")
            #expect(!retry.created)
            #expect(retry.message == original.message)
            let otherSender = try await store.send("a", room.id, from: "bob", "mine", clientID: "c-1")
            #expect(otherSender.created, "client ids are per sender")
            let noClientID = try await store.send("a", room.id, from: "alice", "no id")
            let noClientIDAgain = try await store.send("a", room.id, from: "alice", "no id")
            #expect(noClientID.message.id != noClientIDAgain.message.id, "without a client id every send is new")
            #expect(try await store.history(app: "a", room: room.id, .latest()).map(\.seq) == [1, 2, 3, 4])
        }
    }

    @Test(arguments: TestEngine.available)
    func historyPagesJoinWithoutGaps(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            for index in 1...25 { try await store.send("a", room.id, from: index.isMultiple(of: 2) ? "bob" : "alice", "m\(index)") }
            let latest = try await store.history(app: "a", room: room.id, .latest(10))
            #expect(latest.map(\.seq) == Array(16...25))
            let before = try await store.history(app: "a", room: room.id, HistoryQuery(before: 16, limit: 10))
            #expect(before.map(\.seq) == Array(6...15))
            let oldest = try await store.history(app: "a", room: room.id, HistoryQuery(before: 6, limit: 10))
            #expect(oldest.map(\.seq) == Array(1...5))
            let after = try await store.history(app: "a", room: room.id, HistoryQuery(after: 20, limit: 3))
            #expect(after.map(\.seq) == [21, 22, 23])
            let window = try await store.history(app: "a", room: room.id, HistoryQuery(before: 10, after: 5, limit: 100))
            #expect(window.map(\.seq) == [6, 7, 8, 9])
            #expect(try await store.history(app: "a", room: room.id, HistoryQuery(after: 25)).isEmpty)
            #expect(
                try await store.history(app: "a", room: room.id, HistoryQuery(limit: 0)).map(\.seq) == [25], "limit clamps to at least 1")
            var paged: [Int64] = []
            var cursor: Int64 = 0
            while true {
                let page = try await store.history(app: "a", room: room.id, HistoryQuery(after: cursor, limit: 7))
                guard let last = page.last else { break }
                paged += page.map(\.seq)
                cursor = last.seq
            }
            #expect(paged == Array(1...25))
            #expect(latest.last?.parts == [.text("m25")])
        }
    }

    @Test(arguments: TestEngine.available)
    func editAndDeleteKeepTheSeq(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let first = try await store.send("a", room.id, from: "alice", "typo").message
            try await store.send("a", room.id, from: "bob", "reply")
            let edited = try await store.editMessage(app: "a", room: room.id, id: first.id, parts: [.text("fixed")])
            #expect(edited.seq == first.seq)
            #expect(edited.parts == [.text("fixed")])
            #expect(edited.editedAt != nil)
            #expect(try await store.message(app: "a", room: room.id, id: first.id) == edited)

            _ = try await store.addReaction(app: "a", room: room.id, message: first.id, user: "bob", emoji: "👍")
            let deleted = try await store.deleteMessage(app: "a", room: room.id, id: first.id)
            #expect(deleted.isDeleted)
            #expect(deleted.parts.isEmpty)
            #expect(deleted.reactions.isEmpty)
            #expect(deleted.seq == first.seq)
            let history = try await store.history(app: "a", room: room.id, .latest())
            #expect(history.map(\.seq) == [1, 2], "a tombstone keeps its place in history")
            #expect(history[0].isDeleted)
            #expect(history[0].reactions.isEmpty)
            let deletedTwice = try await store.deleteMessage(app: "a", room: room.id, id: first.id)
            #expect(deletedTwice.deletedAt == deleted.deletedAt)
            await expectStoreError(.conflict) {
                try await store.editMessage(app: "a", room: room.id, id: first.id, parts: [.text("resurrect")])
            }
            await expectStoreError(.notFound) { try await store.editMessage(app: "a", room: room.id, id: 424242, parts: [.text("x")]) }
            let other = try await store.makeRoom("a", creator: "alice")
            await expectStoreError(.notFound) { try await store.deleteMessage(app: "a", room: other.id, id: history[1].id) }
            #expect(try await store.send("a", room.id, from: "alice", "next").message.seq == 3)
        }
    }
}
