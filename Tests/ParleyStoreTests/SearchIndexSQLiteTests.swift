import Testing

@testable import ParleyStore

/// SQLite's search index (migration 13) against the rows it mirrors: after any mix of sends,
/// edits, deletes, erasure and room deletion, the FTS5 table holds exactly the messages that
/// have words and are not deleted, and FTS5 finds itself consistent.
@Suite struct SearchIndexSQLiteTests {
    private func search(_ store: SQLChatStore, _ user: String, _ words: [String], prefix: Bool = false) async throws -> [String] {
        let page = try await store.searchMessages(
            app: "a", user: user, MessageSearchQuery(words: words, lastWordIsPrefix: prefix, limit: 50))
        return page.hits.map { $0.message.parts.compactMap(\.text).joined() }
    }

    private func indexCounts(_ store: SQLChatStore) async throws -> (indexed: Int, expected: Int) {
        try await store.database.read { context in
            let indexed = try context.queryFirst("SELECT count(*) FROM message_search_docsize", []) { $0.int(0) } ?? -1
            let expected =
                try context.queryFirst(
                    "SELECT count(*) FROM messages WHERE search_doc IS NOT NULL AND deleted_at IS NULL", []
                ) { $0.int(0) } ?? -2
            return (indexed, expected)
        }
    }

    private func integrityCheck(_ store: SQLChatStore) async throws {
        try await store.database.write { context in
            try context.execute("INSERT INTO message_search (message_search) VALUES ('integrity-check')", [])
        }
    }

    @Test func theIndexHoldsExactlyTheLiveMessagesAfterEveryKindOfChange() async throws {
        try await withStore(.sqlite) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            let other = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let first = try await store.send("a", room.id, from: "alice", "apples and pears")
            let second = try await store.send("a", room.id, from: "bob", "apples again")
            _ = try await store.send("a", room.id, from: "carol", "carol likes apples")
            _ = try await store.send("a", other.id, from: "bob", "apples in the other room")
            _ = try await store.send("a", room.id, from: "alice", "!!!")  // no words: not indexed
            #expect(try await search(store, "alice", ["apples"]).count == 4)

            _ = try await store.editMessage(app: "a", room: room.id, id: first.message.id, parts: [.text("bananas now")])
            #expect(try await search(store, "alice", ["pears"]).isEmpty, "the old words are gone")
            #expect(try await search(store, "alice", ["bananas"]) == ["bananas now"])
            _ = try await store.deleteMessage(app: "a", room: room.id, id: second.message.id, audit: nil)
            #expect(try await search(store, "alice", ["again"]).isEmpty)
            _ = try await store.eraseUser(
                app: "a", user: "carol", mode: .delete, audit: AppAuditEntry(actor: "admin", action: "user.erase", target: "carol"))
            #expect(try await search(store, "alice", ["carol"]).isEmpty)
            _ = try await store.deleteRoom(app: "a", id: other.id)
            #expect(try await search(store, "bob", ["apples"]).isEmpty)

            let counts = try await indexCounts(store)
            #expect(counts.indexed == counts.expected && counts.indexed == 1, "\(counts)")
            try await integrityCheck(store)
            let leftovers = try await store.database.read { context in
                try context.queryFirst("SELECT count(*) FROM messages WHERE deleted_at IS NOT NULL AND search_doc IS NOT NULL", []) {
                    $0.int(0)
                }
            }
            #expect(leftovers == 0, "a deleted message keeps none of its words")
        }
    }

    @Test func roomTokensAreTheSameInSwiftAndSQL() async throws {
        try await withStore(.sqlite) { store in
            let token = try await store.database.read { context in
                try context.queryFirst("SELECT lower(hex($1 || char(31) || $2))", [.text("äpp"), .text("röom-1")]) { $0.text(0) }
            }
            #expect(token == SQLChatStore.searchRoomToken(app: "äpp", room: "röom-1"))
        }
    }

    @Test func aMemberOfManyRoomsIsSearchedInGroupsAndGetsTheNewestMatches() async throws {
        try await withStore(.sqlite) { store in
            try await store.makeUser("a", "alice")
            var rooms: [Room] = []
            for _ in 0..<(SQLChatStore.searchRoomsPerQuery * 2 + 5) { rooms.append(try await store.makeRoom("a", creator: "alice")) }
            for (index, room) in rooms.enumerated() { _ = try await store.send("a", room.id, from: "alice", "needle \(index)") }
            let page = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["needle"], limit: 50))
            #expect(page.hits.count == 50)
            let all = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["needle", "3"], limit: 50))
            #expect(all.hits.map { $0.message.parts.compactMap(\.text).joined() } == ["needle 3"])
        }
    }
}
