import Testing

@testable import ParleyStore

/// PostgreSQL's postings of one word (`message_words`, migration 19): kept equal to the words of
/// the stored vectors through every write, and read from any floor they answer exactly the newest
/// matches in scope, as a scan of the rows does.
@Suite struct SearchPostgresPostingsTests {
    /// Sends, an edit, deletions, a sender blocked, a room the caller is not in: for whole words
    /// and prefixes, from no floor, a floor among the matches and one above them all, the
    /// postings answer what the scan answers.
    @Test func thePostingsAnswerAsTheScanFromAnyFloor() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let busy = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let calm = try await store.makeRoom("a", creator: "alice")
            let theirs = try await store.makeRoom("a", creator: "carol")
            var sent: [Int64] = []
            for index in 0..<300 {
                let word = index % 3 == 0 ? "plum" : "pear"
                sent.append(try await store.send("a", busy.id, from: index % 7 == 0 ? "bob" : "alice", "\(word) busy \(index)").message.id)
                if index % 4 == 0 { try await store.send("a", calm.id, from: "alice", "plum calm \(index) plumage") }
                if index % 5 == 0 { try await store.send("a", theirs.id, from: "carol", "plum pear theirs \(index)") }
            }
            _ = try await store.deleteMessage(app: "a", room: busy.id, id: sent[297], audit: nil)
            _ = try await store.editMessage(app: "a", room: busy.id, id: sent[298], parts: [.text("quince now")])
            for blocking in [false, true] {
                if blocking { #expect(try await store.block(app: "a", blocker: "alice", blocked: "bob")) }
                for (text, prefix) in [("plum", false), ("pear", false), ("quince", false), ("pl", true), ("pea", true), ("plum", true)] {
                    let query = MessageSearchQuery(words: [text], lastWordIsPrefix: prefix)
                    try await store.database.read { context in
                        let scope = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", query)
                        let rows = try SearchPostgresPathsTests.newestMatchesByScan(context, scope)
                        #expect(!rows.isEmpty)
                        for floor in [nil, rows[rows.count / 2], rows[0] + 1] {
                            let posted = try SQLChatStore.postgresPostingsCandidates(context, app: "a", user: "alice", scope, floor: floor)
                            #expect(
                                posted.map(\.id) == rows,
                                "\(text) (prefix: \(prefix), blocks: \(blocking)) from \(String(describing: floor))")
                        }
                    }
                }
                for words in [["plum", "busy"], ["busy", "pear", "busy"], ["plum", "calm", "plumage"], ["plum", "pear"]] {
                    try await store.database.read { context in
                        let scope = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", MessageSearchQuery(words: words))
                        let rows = try SearchPostgresPathsTests.newestMatchesByScan(context, scope)
                        let all = try SQLChatStore.postgresIntersectionCandidates(context, app: "a", user: "alice", scope, floor: 0)
                        #expect(all?.map(\.id) == rows, "\(words) (blocks: \(blocking)): all postings intersected")
                        guard rows.count == MessageSearchQuery.candidateLimit, let last = rows.last else { return }
                        let fromLast = try SQLChatStore.postgresIntersectionCandidates(context, app: "a", user: "alice", scope, floor: last)
                        #expect(fromLast?.map(\.id) == rows, "\(words): the postings from the oldest needed suffice")
                        let fromAbove = try SQLChatStore.postgresIntersectionCandidates(
                            context, app: "a", user: "alice", scope, floor: last + 1)
                        #expect(fromAbove == nil, "\(words): above the oldest needed the intersection falls short and says so")
                    }
                }
            }
        }
    }

    /// A whole word in a third of 10,000 messages: the probe cannot answer, its share gives a
    /// floor, and the postings above it answer; a prefix of it in as many is walked instead; two
    /// words in as many have their postings intersected above a floor; a word in one message is
    /// asked of the GIN index.
    @Test func aWholeWordGoesFromTheProbeToItsPostingsAboveAFloor() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            try await SearchPostgresPathsTests.seedThreeRooms(
                store, plumWhen: "g % 3 = 0", roomOf: "CASE WHEN g % 10 < 7 THEN $1 WHEN g % 10 < 9 THEN $2 ELSE $3 END")
            try await store.database.read { context in
                let word = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", MessageSearchQuery(words: ["plum"]))
                let route = try SQLChatStore.postgresSearchRoute(context, app: "a", user: "alice", word)
                guard case .postings(let floor?) = route else {
                    Issue.record("a whole word goes to its postings above a floor, not \(route)")
                    return
                }
                let rows = try SearchPostgresPathsTests.newestMatchesByScan(context, word)
                #expect(floor <= rows.last ?? 0, "the floor is under the newest matches")
                let posted = try SQLChatStore.postgresPostingsCandidates(context, app: "a", user: "alice", word, floor: floor)
                #expect(posted.map(\.id) == rows)
                let prefix = try SQLChatStore.postgresSearchScope(
                    context, app: "a", user: "alice", MessageSearchQuery(words: ["plu"], lastWordIsPrefix: true))
                #expect(try SQLChatStore.postgresSearchRoute(context, app: "a", user: "alice", prefix) == .newest(rows))
                let two = try SQLChatStore.postgresSearchScope(
                    context, app: "a", user: "alice", MessageSearchQuery(words: ["plum", "filler"]))
                let twoRoute = try SQLChatStore.postgresSearchRoute(context, app: "a", user: "alice", two)
                guard case .intersection(let twoFloor) = twoRoute, twoFloor > 0 else {
                    Issue.record("two words in many messages are intersected above a floor, not \(twoRoute)")
                    return
                }
                let intersected = try SQLChatStore.postgresIntersectionCandidates(context, app: "a", user: "alice", two, floor: twoFloor)
                #expect(intersected?.map(\.id) == rows)
                let one = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", MessageSearchQuery(words: ["4321"]))
                #expect(try SQLChatStore.postgresSearchRoute(context, app: "a", user: "alice", one) == .index, "a word in few messages")
                let twice = try SQLChatStore.postgresSearchScope(
                    context, app: "a", user: "alice", MessageSearchQuery(words: ["plum", "plum"]))
                #expect(
                    try SQLChatStore.postgresSearchRoute(context, app: "a", user: "alice", twice) == route, "a word asked twice is one word"
                )
            }
            let page = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["plum"], limit: 50))
            #expect(page.hits.count == 50 && page.hits.allSatisfy { $0.message.text.hasPrefix("plum ") })
        }
    }

    /// Another room's messages carrying the tag of the caller's room (as a hash collision
    /// would), more and newer than a search keeps: the postings behind the tag are checked against
    /// their rows until enough of the caller's room are kept, so its older matches still count.
    @Test func aTagSharedWithAnotherRoomDoesNotCrowdOutTheCallersMatches() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            for id in ["alice", "carol"] { try await store.makeUser("a", id) }
            let mine = try await store.makeRoom("a", creator: "alice")
            let theirs = try await store.makeRoom("a", creator: "carol")
            var ours: [Int64] = []
            for index in 0..<5 { ours.append(try await store.send("a", mine.id, from: "alice", "collision \(index)").message.id) }
            try await store.database.write { context in
                try context.execute(
                    """
                    INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at)
                    SELECT $1, $2, g, 'carol', '[{"type":"text","text":"collision course"}]', g FROM generate_series(1, 250) AS g
                    """, [.text("a"), .text(theirs.id)])
            }
            try await SearchPostgresPathsTests.tagMessages(of: theirs.id, as: mine.id, store)
            let newestFirst = Array(ours.reversed())
            try await store.database.read { context in
                let scope = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", MessageSearchQuery(words: ["collision"]))
                let posted = try SQLChatStore.postgresPostingsCandidates(context, app: "a", user: "alice", scope, floor: nil)
                #expect(posted.map(\.id) == newestFirst, "the caller's five, behind 250 newer postings of another room")
                let two = try SQLChatStore.postgresSearchScope(
                    context, app: "a", user: "alice", MessageSearchQuery(words: ["collision", "course"]))
                #expect(try SQLChatStore.postgresIntersectionCandidates(context, app: "a", user: "alice", two, floor: 0)?.isEmpty == true)
            }
        }
    }

    /// Too few matches above a floor reach below it in proportion: 50 found over ids 901–1,000
    /// ask for six times that span (the walk's margin), so down to id 400; none found, or a
    /// span reaching below the first id, leave the floor to the caller.
    @Test func tooFewAboveAFloorReachBelowItInProportion() {
        let found = (0..<50).map { Int64(1_000 - 2 * $0) }
        #expect(SQLChatStore.postingsFloorBelow(901, found: found) == 400)
        #expect(SQLChatStore.postingsFloorBelow(901, found: []) == nil)
        #expect(SQLChatStore.postingsFloorBelow(901, found: [1_000]) == nil, "one match over 100 ids: 30,000 ids below")
    }

    /// Whatever writes a vector — a send, an edit, a deletion, a room deleted with its messages,
    /// an erasure, a vector rewritten in SQL — `message_words` holds exactly the words of the
    /// stored vectors afterwards.
    @Test func thePostingsFollowEveryWriteOfAVector() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let kept = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let doomed = try await store.makeRoom("a", creator: "alice")
            let first = try await store.send("a", kept.id, from: "alice", "apple banana cherry")
            let second = try await store.send("a", kept.id, from: "bob", "banana date")
            try await store.send("a", doomed.id, from: "alice", "elderberry fig")
            try await Self.expectPostings(store, 7)
            _ = try await store.editMessage(app: "a", room: kept.id, id: first.message.id, parts: [.text("apple grape")])
            try await Self.expectPostings(store, 6)
            _ = try await store.deleteMessage(app: "a", room: kept.id, id: second.message.id, audit: nil)
            try await Self.expectPostings(store, 4)
            _ = try await store.deleteRoom(app: "a", id: doomed.id)
            try await Self.expectPostings(store, 2)
            try await store.send("a", kept.id, from: "bob", "honeydew kiwi")
            _ = try await store.eraseUser(
                app: "a", user: "bob", mode: .delete, audit: AppAuditEntry(actor: "admin", action: "user_erased", target: "bob"))
            try await Self.expectPostings(store, 2)
            try await store.database.write { context in
                try context.execute("UPDATE messages SET search = search || 'xtra'::tsvector WHERE app_id = 'a'")
            }
            try await Self.expectPostings(store, 3)
        }
    }

    /// Expects `message_words` to hold `count` rows, exactly the words of the stored vectors.
    static func expectPostings(_ store: SQLChatStore, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let mismatched = try await mismatches(store)
        let rows = try await postings(store)
        #expect(mismatched == 0 && rows == count, "mismatches \(mismatched), rows \(rows)", sourceLocation: sourceLocation)
    }

    /// Rows of `message_words` and words of stored vectors that are not both.
    static func mismatches(_ store: SQLChatStore) async throws -> Int {
        try await store.database.read { context in
            try context.queryFirst(
                """
                SELECT count(*) FROM (
                    (SELECT word, message_id FROM message_words
                     EXCEPT SELECT w, id FROM messages, unnest(tsvector_to_array(search)) AS w)
                    UNION ALL
                    (SELECT w, id FROM messages, unnest(tsvector_to_array(search)) AS w
                     EXCEPT SELECT word, message_id FROM message_words)
                ) AS d
                """
            ) { $0.int(0) } ?? -1
        }
    }

    /// Rows of `message_words`.
    static func postings(_ store: SQLChatStore) async throws -> Int {
        try await store.database.read { context in
            try context.queryFirst("SELECT count(*) FROM message_words") { $0.int(0) } ?? -1
        }
    }
}
