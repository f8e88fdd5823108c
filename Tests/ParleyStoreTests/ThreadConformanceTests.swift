import Testing

@testable import ParleyStore

@Suite("Conformance: threads, quotes and mentions")
struct ThreadConformanceTests {
    private func prepare(_ store: SQLChatStore) async throws -> Room {
        for id in ["alice", "bob", "carol", "dave", "mallory"] { try await store.makeUser("a", id) }
        return try await store.makeRoom("a", creator: "alice", members: ["bob", "carol", "dave"])
    }

    private func reply(
        _ store: SQLChatStore, _ room: Room, from sender: String, to parent: Int64, _ text: String, inRoom: Bool = false,
        clientID: String? = nil
    ) async throws -> AppendResult {
        try await store.appendMessage(
            app: "a", room: room.id,
            NewMessage(senderID: sender, clientID: clientID, parts: [.text(text)], parentID: parent, showInRoom: inRoom))
    }

    @Test(arguments: TestEngine.available)
    func repliesAttachToTheRootAndCountOnIt(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let root = try await store.send("a", room.id, from: "alice", "root").message
            let first = try await reply(store, room, from: "bob", to: root.id, "one")
            #expect(first.message.parentID == root.id)
            #expect(!first.message.showInRoom)
            #expect(first.thread == ThreadUpdate(rootID: root.id, replyCount: 1, lastReplierIDs: ["bob"]))
            let nested = try await reply(store, room, from: "carol", to: first.message.id, "to a reply", inRoom: true)
            #expect(nested.message.parentID == root.id, "a reply to a reply joins the root's thread")
            #expect(nested.message.showInRoom)
            _ = try await reply(store, room, from: "dave", to: root.id, "three")
            let last = try await reply(store, room, from: "bob", to: root.id, "four")
            #expect(last.thread == ThreadUpdate(rootID: root.id, replyCount: 4, lastReplierIDs: ["bob", "dave", "carol"]))

            let stored = try await store.message(app: "a", room: room.id, id: root.id)
            #expect(stored.replyCount == 4)
            #expect(stored.lastReplierIDs == ["bob", "dave", "carol"])
            let retry = try await reply(store, room, from: "bob", to: root.id, "four again", clientID: "c1")
            let again = try await reply(store, room, from: "bob", to: root.id, "four again", clientID: "c1")
            #expect(!again.created)
            #expect(again.message.id == retry.message.id)
            #expect(again.message.parentID == root.id)
            #expect(try await store.message(app: "a", room: room.id, id: root.id).replyCount == 5, "a retry is not a new reply")

            let thread = try await store.replies(app: "a", room: room.id, parent: root.id, HistoryQuery(limit: 10))
            #expect(thread.map(\.text) == ["one", "to a reply", "three", "four", "four again"])
            let older = try await store.replies(
                app: "a", room: room.id, parent: root.id, HistoryQuery(before: thread[2].seq, limit: 1))
            #expect(older.map(\.text) == ["to a reply"])
            let newer = try await store.replies(app: "a", room: room.id, parent: root.id, HistoryQuery(after: thread[2].seq, limit: 1))
            #expect(newer.map(\.text) == ["four"])

            let history = try await store.history(app: "a", room: room.id, HistoryQuery(limit: 50))
            #expect(history.map(\.text) == ["root", "to a reply"], "thread-only replies are not in the room's history")
            await expectStoreError(.notFound) {
                try await store.replies(app: "a", room: room.id, parent: 999_999, HistoryQuery(limit: 10))
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func badParentsAreRefusedWithTheirOwnCodes(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let other = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let elsewhere = try await store.send("a", other.id, from: "alice", "elsewhere").message
            let root = try await store.send("a", room.id, from: "alice", "root").message
            let child = try await reply(store, room, from: "bob", to: root.id, "child").message
            await expectStoreError(.parentNotFound) { try await reply(store, room, from: "bob", to: 999_999, "x") }
            await expectStoreError(.parentNotFound) { try await reply(store, room, from: "bob", to: elsewhere.id, "x") }
            await expectStoreError(.notMember) { try await reply(store, room, from: "mallory", to: root.id, "x") }
            _ = try await store.deleteMessage(app: "a", room: room.id, id: root.id)
            await expectStoreError(.parentDeleted) { try await reply(store, room, from: "bob", to: root.id, "x") }
            await expectStoreError(.parentDeleted) { try await reply(store, room, from: "bob", to: child.id, "x") }
            let after = try await store.room(app: "a", id: room.id)
            #expect(after.lastSeq == child.seq, "refused replies take no seq")
        }
    }

    @Test(arguments: TestEngine.available)
    func quotesKeepTheTextSentAndReadAsDeletedLater(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let original = try await store.send("a", room.id, from: "alice", "original words").message
            let quoting = try await store.appendMessage(
                app: "a", room: room.id, NewMessage(senderID: "bob", parts: [.text("I agree")], quotedID: original.id)
            ).message
            #expect(quoting.quoted == QuotedMessage(id: original.id, senderID: "alice", parts: [.text("original words")]))
            _ = try await store.editMessage(app: "a", room: room.id, id: original.id, parts: [.text("edited words")])
            #expect(try await store.message(app: "a", room: room.id, id: quoting.id).quoted?.text == "original words")
            _ = try await store.deleteMessage(app: "a", room: room.id, id: original.id)
            let page = try await store.history(app: "a", room: room.id, HistoryQuery(limit: 10))
            let quote = page.first { $0.id == quoting.id }?.quoted
            #expect(quote?.isDeleted == true)
            #expect(quote?.parts == [])
            await expectStoreError(.quotedDeleted) {
                try await store.appendMessage(
                    app: "a", room: room.id, NewMessage(senderID: "bob", parts: [.text("x")], quotedID: original.id))
            }
            await expectStoreError(.quotedNotFound) {
                try await store.appendMessage(app: "a", room: room.id, NewMessage(senderID: "bob", parts: [.text("x")], quotedID: 999_999))
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func mentionsResolveToMembersAndCountUntilRead(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let first = try await store.send("a", room.id, from: "alice", "@bob and @carol, meet @mallory; also @alice and mail x@dave")
                .message
            #expect(first.mentions == ["bob", "carol"], "members only, not the sender, not an address")
            #expect(try await store.message(app: "a", room: room.id, id: first.id).mentions == ["bob", "carol"])
            _ = try await store.send("a", room.id, from: "carol", "@bob again")
            let plain = try await store.send("a", room.id, from: "dave", "nobody")
            #expect(plain.message.mentions == [])
            let threadOnly = try await reply(store, room, from: "dave", to: first.id, "in the thread, @bob")
            #expect(threadOnly.message.mentions == ["bob"])

            var bob = try await store.roomSummary(app: "a", room: room.id, user: "bob")
            #expect(bob.unreadMentions == 3)
            #expect(bob.unreadCount == 3, "the thread-only reply is not unread in the room")
            #expect(try await store.roomSummary(app: "a", room: room.id, user: "dave").unreadMentions == 0)
            _ = try await store.deleteMessage(app: "a", room: room.id, id: first.id)
            #expect(try await store.roomSummary(app: "a", room: room.id, user: "bob").unreadMentions == 2)
            _ = try await store.setReadCursor(app: "a", room: room.id, user: "bob", seq: threadOnly.message.seq - 1)
            bob = try await store.roomSummary(app: "a", room: room.id, user: "bob")
            #expect(bob.unreadMentions == 1)
            #expect(bob.unreadCount == 0)
            _ = try await store.setReadCursor(app: "a", room: room.id, user: "bob", seq: threadOnly.message.seq)
            #expect(try await store.roomSummaries(app: "a", user: "bob", limit: 10).first?.unreadMentions == 0)
        }
    }
}
