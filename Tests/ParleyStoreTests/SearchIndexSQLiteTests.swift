import Testing

@testable import ParleyStore

/// SQLite's search index (migrations 13 and 14) against the rows it mirrors: after any mix of sends,
/// edits, deletes, erasure and room deletion, the FTS5 table holds exactly the messages that
/// have words and are not deleted, and FTS5 finds itself consistent.
@Suite struct SearchIndexSQLiteTests {
    private func search(_ store: SQLChatStore, _ user: String, _ words: [String], prefix: Bool = false) async throws -> [String] {
        let page = try await store.searchMessages(
            app: "a", user: user, MessageSearchQuery(words: words, lastWordIsPrefix: prefix, limit: 50))
        return page.hits.map { $0.message.parts.compactMap(\.text).joined() }
    }

    private func indexCounts(_ store: SQLChatStore, rooms: [String]) async throws -> (indexed: Int, expected: Int) {
        try await store.database.read { context in try Self.indexCounts(context, app: "a", rooms: rooms) }
    }

    /// How many rows the index holds for `rooms` (a contentless table cannot be scanned, so it
    /// is asked for every token that begins with their tags), and how many live messages with
    /// words there are.
    static func indexCounts(_ context: SQLContext, app: String, rooms: [String]) throws -> (indexed: Int, expected: Int) {
        let tags = try SQLChatStore.searchTags(context, app: app, rooms: rooms)
        let indexed =
            try context.queryFirst(
                "SELECT count(*) FROM message_search WHERE message_search MATCH $1",
                [.text(tags.map { "\"\($0)\" *" }.joined(separator: " OR "))]
            ) { $0.int(0) } ?? -1
        let expected =
            try context.queryFirst(
                "SELECT count(*) FROM messages WHERE search_doc IS NOT NULL AND deleted_at IS NULL", []
            ) { $0.int(0) } ?? -2
        return (indexed, expected)
    }

    /// How many message ids lie above the search watermark (given, not yet indexed).
    private func waiting(_ store: SQLChatStore) async throws -> Int64? {
        try await store.database.read { context in
            try context.queryFirst(
                "SELECT (SELECT coalesce(max(id), 0) FROM messages) - indexed_through FROM message_search_state", []
            ) { $0.int64(0) }
        }
    }

    private func integrityCheck(_ store: SQLChatStore) async throws {
        _ = try await store.database.write { context in try Self.integrityCheck(context) }
    }

    /// FTS5's own check; with a contentless table it checks the index's structure.
    static func integrityCheck(_ context: SQLContext) throws {
        try context.execute("INSERT INTO message_search (message_search) VALUES ('integrity-check')", [])
    }

    @Test func theIndexHoldsExactlyTheLiveMessagesAfterEveryKindOfChange() async throws {
        try await withStore(.sqlite, searchIndexBatch: 1) { store in
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

            let counts = try await indexCounts(store, rooms: [room.id, other.id])
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

    /// A room's tag is given when the room is created and outlives it, so the tag a message was
    /// indexed under is the tag its removal names; a word beginning with digits stays in its room.
    @Test func tagsAreFixedWidthAndAWordCannotReachAnotherRoom() async throws {
        try await withStore(.sqlite, searchIndexBatch: 1) { store in
            try await store.makeUser("a", "alice")
            var rooms: [Room] = []
            for _ in 0..<18 { rooms.append(try await store.makeRoom("a", creator: "alice")) }
            let ids = rooms.map(\.id)
            let tags = try await store.database.read { context in try SQLChatStore.searchTags(context, app: "a", rooms: ids) }
            #expect(Set(tags).count == 18 && tags.allSatisfy { $0.utf8.count == 8 }, "\(tags)")
            // Tags 1 and 0x12: written without their leading zeros, "1" + "2x" would read as "12" + "x".
            _ = try await store.send("a", rooms[0].id, from: "alice", "2x")
            _ = try await store.send("a", rooms[17].id, from: "alice", "x")
            #expect(try await search(store, "alice", ["2x"]) == ["2x"])
            #expect(try await search(store, "alice", ["x"]) == ["x"])
            _ = try await store.deleteRoom(app: "a", id: rooms[0].id)
            #expect(try await search(store, "alice", ["2x"]).isEmpty)
            let counts = try await indexCounts(store, rooms: ids)
            #expect(counts.indexed == 1 && counts.expected == 1, "\(counts)")
            try await integrityCheck(store)
        }
    }

    @Test func aMemberOfManyRoomsIsSearchedInGroupsAndGetsTheNewestMatches() async throws {
        try await withStore(.sqlite, searchIndexBatch: 1) { store in
            try await store.makeUser("a", "alice")
            var rooms: [Room] = []
            for _ in 0..<(SQLChatStore.searchRoomsPerQuery * 2 + 5) { rooms.append(try await store.makeRoom("a", creator: "alice")) }
            for (index, room) in rooms.enumerated() { _ = try await store.send("a", room.id, from: "alice", "needle \(index)") }
            let page = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["needle"], limit: 50))
            #expect(page.hits.count == 50)
            let all = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["needle", "3"], limit: 50))
            #expect(all.hits.map { $0.message.parts.compactMap(\.text).joined() } == ["needle 3"])
            let typed = try await store.searchMessages(
                app: "a", user: "alice", MessageSearchQuery(words: ["needle", "13"], lastWordIsPrefix: true, limit: 50))
            #expect(
                Set(typed.hits.map { $0.message.parts.compactMap(\.text).joined() }) == [
                    "needle 13", "needle 130", "needle 131", "needle 132"
                ])
        }
    }

    /// Rows changed again before their transaction commits are indexed as they are at the
    /// commit: an edited queued row with its last words, a deleted one not at all.
    @Test func rowsChangedBeforeTheCommitAreIndexedAsTheyAreAtTheCommit() async throws {
        try await withStore(.sqlite, searchIndexBatch: 1) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            try await store.database.write { context in
                for (seq, words) in [(1, "first draft"), (2, "doomed words"), (3, "kept words")] {
                    try context.execute(
                        """
                        INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at, search_doc)
                        VALUES ('a', $1, $2, 'alice', '[{"type":"text","text":"x"}]', 1, $3)
                        """, [.text(room.id), .int(seq), .text(words)])
                }
                try context.execute("UPDATE messages SET search_doc = 'second draft' WHERE seq = 1", [])
                try context.execute("DELETE FROM messages WHERE seq = 2", [])
            }
            #expect(try await search(store, "alice", ["draft"]).count == 1)
            #expect(try await search(store, "alice", ["first"]).isEmpty)
            #expect(try await search(store, "alice", ["second"]).count == 1)
            #expect(try await search(store, "alice", ["doomed"]).isEmpty)
            #expect(try await search(store, "alice", ["words"]).count == 1)
            let counts = try await indexCounts(store, rooms: [room.id])
            #expect(counts.indexed == 2 && counts.expected == 2, "\(counts)")
            try await integrityCheck(store)
        }
    }

    /// A send whose operation fails after its insert is rolled back to its savepoint; the next
    /// send is given its id again and is indexed under it.
    @Test func aSendRolledBackLeavesNothingQueued() async throws {
        try await withStore(.sqlite, searchIndexBatch: 1) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            await #expect(throws: (any Error).self) {
                try await store.database.write { context in
                    try context.execute(
                        """
                        INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at, search_doc)
                        VALUES ('a', $1, 1, 'alice', '[]', 1, 'ghost')
                        """, [.text(room.id)])
                    throw StoreError(.internal, "refused after the insert")
                }
            }
            _ = try await store.send("a", room.id, from: "alice", "real message")
            #expect(try await search(store, "alice", ["ghost"]).isEmpty)
            #expect(try await search(store, "alice", ["real"]).count == 1)
            #expect(try await waiting(store) == 0)
            let counts = try await indexCounts(store, rooms: [room.id])
            #expect(counts.indexed == 1 && counts.expected == 1, "\(counts)")
            try await integrityCheck(store)
        }
    }

    /// Messages wait above the watermark until a commit finds a batch there, and are found
    /// meanwhile; the commit that finds the batch moves them all into the index.
    @Test func theQueueMovesIntoTheIndexAtItsBatchAndIsSearchedUntilThen() async throws {
        try await withStore(.sqlite, searchIndexBatch: 3) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            func queued() async throws -> Int64? { try await waiting(store) }
            _ = try await store.send("a", room.id, from: "alice", "queued one")
            _ = try await store.send("a", room.id, from: "alice", "queued two")
            #expect(try await queued() == 2)
            #expect(try await indexCounts(store, rooms: [room.id]).indexed == 0)
            #expect(try await search(store, "alice", ["queued"]).count == 2, "found in the queue")
            _ = try await store.send("a", room.id, from: "alice", "queued three")
            #expect(try await queued() == 0)
            #expect(try await indexCounts(store, rooms: [room.id]).indexed == 3)
            #expect(try await search(store, "alice", ["queued"]).count == 3, "found in the index")
            try await integrityCheck(store)
        }
    }

    /// A word is kept to the caller's rooms before the newest 200 are taken: many newer matches
    /// elsewhere must not crowd out the caller's older ones.
    @Test func aWordIsScopedBeforeTheNewestAreTaken() async throws {
        try await withStore(.sqlite, searchIndexBatch: 1) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let mine = try await store.makeRoom("a", creator: "alice")
            let theirs = try await store.makeRoom("a", creator: "bob")
            for index in 0..<5 { _ = try await store.send("a", mine.id, from: "alice", "zephyr \(index)") }
            for index in 0..<(MessageSearchQuery.candidateLimit + 20) {
                _ = try await store.send("a", theirs.id, from: "bob", "zephyr elsewhere \(index)")
            }
            #expect(try await search(store, "alice", ["zephyr"]).count == 5)
        }
    }

    /// A caller blocking a prolific sender: the walk below each page of matches stops after its
    /// read limit, keeping the others' matches it met on the way, instead of reading every match
    /// in the caller's rooms.
    @Test func aBlockedProlificSenderCostsAtMostTheReadLimit() async throws {
        try await withStore(.sqlite, searchIndexBatch: 1) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            var carols: [Int64] = []
            carols.append(try await store.send("a", room.id, from: "carol", "lunch first").message.id)
            for index in 0..<600 {
                if index % 100 == 99 { carols.append(try await store.send("a", room.id, from: "carol", "lunch \(index)").message.id) }
                try await store.send("a", room.id, from: "bob", "lunch again \(index)")
            }
            #expect(try await store.block(app: "a", blocker: "alice", blocked: "bob"))
            let found = try await store.search("a", "alice", "lunch").hits.map(\.message.id)
            #expect(Set(found) == Set(carols), "within the limit every match of carol's is found")

            let (unbounded, capped) = try await store.read { context in
                let tags = try SQLChatStore.searchTags(context, app: "a", rooms: [room.id])
                let query = MessageSearchQuery(words: ["lunch"])
                return (
                    try SQLChatStore.indexCandidates(context, app: "a", query, tags: tags, blocked: ["bob"]),
                    try SQLChatStore.indexCandidates(context, app: "a", query, tags: tags, blocked: ["bob"], readLimit: 250)
                )
            }
            #expect(unbounded.read == 607, "below the limit the walk reads to the oldest match")
            #expect(capped.read == 250, "the walk stops at its limit")
            let newest250 = Set(carols.filter { $0 >= carols[4] })
            #expect(Set(capped.ids) == newest250, "carol's matches among the newest 250 are kept: \(capped.ids)")
            #expect(SQLChatStore.searchBlockedReadLimit >= 10 * MessageSearchQuery.candidateLimit)
        }
    }

    /// Edits, deletes, erasure and room deletion of messages still above the watermark and of
    /// messages already indexed, in one store: each is found or not as the call says at once,
    /// and once everything is indexed the index holds exactly the live messages.
    @Test func changesToQueuedAndIndexedMessagesAreFoundAtOnceAndLeaveTheIndexExact() async throws {
        try await withStore(.sqlite, searchIndexBatch: 6) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            let other = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            // Six ids: the sixth send's commit indexes all of them.
            let editedOld = try await store.send("a", room.id, from: "alice", "apricot first")
            let deletedOld = try await store.send("a", room.id, from: "bob", "apricot second")
            _ = try await store.send("a", room.id, from: "carol", "apricot carol old")
            _ = try await store.send("a", other.id, from: "bob", "apricot other old")
            _ = try await store.send("a", room.id, from: "alice", "apricot kept old")
            _ = try await store.send("a", room.id, from: "alice", "apricot sixth")
            #expect(try await waiting(store) == 0)
            // Above the watermark from here on.
            let editedNew = try await store.send("a", room.id, from: "alice", "apricot third")
            let deletedNew = try await store.send("a", room.id, from: "bob", "apricot fourth")
            _ = try await store.send("a", room.id, from: "carol", "apricot carol new")
            _ = try await store.send("a", other.id, from: "bob", "apricot other new")
            #expect(try await waiting(store) == 4)
            #expect(try await search(store, "alice", ["apricot"]).count == 10)

            _ = try await store.editMessage(app: "a", room: room.id, id: editedOld.message.id, parts: [.text("blueberry old")])
            _ = try await store.editMessage(app: "a", room: room.id, id: editedNew.message.id, parts: [.text("blueberry new")])
            #expect(try await search(store, "alice", ["first"]).isEmpty)
            #expect(try await search(store, "alice", ["third"]).isEmpty)
            #expect(Set(try await search(store, "alice", ["blueberry"])) == ["blueberry old", "blueberry new"])
            _ = try await store.deleteMessage(app: "a", room: room.id, id: deletedOld.message.id, audit: nil)
            _ = try await store.deleteMessage(app: "a", room: room.id, id: deletedNew.message.id, audit: nil)
            #expect(try await search(store, "alice", ["second"]).isEmpty)
            #expect(try await search(store, "alice", ["fourth"]).isEmpty)
            _ = try await store.eraseUser(
                app: "a", user: "carol", mode: .delete, audit: AppAuditEntry(actor: "admin", action: "user.erase", target: "carol"))
            #expect(try await search(store, "alice", ["carol"]).isEmpty)
            _ = try await store.deleteRoom(app: "a", id: other.id)
            #expect(try await search(store, "bob", ["other"]).isEmpty)
            #expect(
                Set(try await search(store, "alice", ["apricot"])) == ["apricot kept old", "apricot sixth"])

            // Still some ids above the watermark: the index has only what it took, and FTS5
            // agrees with itself after the changes it was told of.
            try await integrityCheck(store)
            let before = try await indexCounts(store, rooms: [room.id, other.id])
            #expect(before.indexed == 3 && before.expected == 4, "\(before)")
            try await store.database.write { context in
                for statement in Schema.flushSearchWatermarkSQL { try context.execute(statement, []) }
            }
            #expect(try await waiting(store) == 0)
            let after = try await indexCounts(store, rooms: [room.id, other.id])
            #expect(after.indexed == 4 && after.expected == 4, "\(after)")
            #expect(Set(try await search(store, "alice", ["blueberry"])) == ["blueberry old", "blueberry new"])
            try await integrityCheck(store)
        }
    }

    /// SQLite gives a new message the largest id plus one, so deleting the newest indexed
    /// messages frees ids the index has counted as taken: the watermark comes down with them,
    /// and the message given such an id again is found and indexed like any other.
    @Test(arguments: [1, 1_024])
    func anIdFreedBelowTheWatermarkIsIndexedWhenGivenAgain(_ batch: Int) async throws {
        try await withStore(.sqlite, searchIndexBatch: batch) { store in
            try await store.makeUser("a", "alice")
            let kept = try await store.makeRoom("a", creator: "alice")
            let doomed = try await store.makeRoom("a", creator: "alice")
            _ = try await store.send("a", kept.id, from: "alice", "walnut kept")
            let freed = try await store.send("a", doomed.id, from: "alice", "walnut doomed")
            try await store.database.write { context in
                for statement in Schema.flushSearchWatermarkSQL { try context.execute(statement, []) }
            }
            #expect(try await waiting(store) == 0)
            _ = try await store.deleteRoom(app: "a", id: doomed.id)  // hard-deletes the newest message
            let again = try await store.send("a", kept.id, from: "alice", "walnut again")
            #expect(again.message.id == freed.message.id, "the id is given again")
            #expect(Set(try await search(store, "alice", ["walnut"])) == ["walnut kept", "walnut again"])
            try await store.database.write { context in
                for statement in Schema.flushSearchWatermarkSQL { try context.execute(statement, []) }
            }
            let counts = try await indexCounts(store, rooms: [kept.id])
            #expect(counts.indexed == 2 && counts.expected == 2, "\(counts)")
            #expect(Set(try await search(store, "alice", ["walnut"])) == ["walnut kept", "walnut again"])
            try await integrityCheck(store)
        }
    }
}
