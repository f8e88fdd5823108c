/// Message search on SQLite: FTS5 over `messages.search_doc`, and the queue of messages not yet
/// moved into it (migration 13, Schema+Search.swift).
///
/// Words with fewer than ``StoreConfiguration/searchWordsFirstLimit`` matches are looked up alone
/// and their matches' rooms read by rowid. Otherwise one FTS5 query per group of rooms asks for
/// the query's words in `doc` and any of the rooms' tokens in `room`, newest first, so the index intersects them and stops after
/// ``MessageSearchQuery/candidateLimit`` rows. Each candidate is then read from `messages`, which
/// checks again that it is of the app and of a room in scope and not deleted, and leaves out
/// blocked senders; the candidates are ranked by BM25 over their `search_doc` words (see
/// ``bm25(lengths:frequencies:)``).
extension SQLChatStore {
    /// Rooms per FTS5 query: FTS5 nests each `OR` one level deeper and refuses expressions
    /// deeper than 256, so a member of many rooms is searched in groups.
    static let searchRoomsPerQuery = 64

    func searchSQLite(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        let words = Self.matchWords(query)
        let wordsFirstLimit = searchWordsFirstLimit
        return try await read { context in
            let rooms = try Self.searchScope(context, app: app, user: user, room: query.room)
            guard !rooms.isEmpty else { return MessageSearchPage(hits: [], nextOffset: nil) }
            let scope = Set(rooms)
            var candidates: [Int64]
            // A prefix stands for many words, whose matches rarely fit under the limit: looking them
            // up alone first mostly costs a second query (measured: prefix searches' p99 rose by half).
            let wordsFirst = query.lastWordIsPrefix ? 0 : wordsFirstLimit
            if let few = try Self.allMatchesInScope(context, app: app, words: words, rooms: scope, below: wordsFirst) {
                candidates = few
            } else {
                candidates = []
                var start = 0
                while start < rooms.count {
                    let group = rooms[start..<min(rooms.count, start + Self.searchRoomsPerQuery)]
                    candidates += try Self.indexCandidates(
                        context, words: words, roomTokens: group.map { Self.searchRoomToken(app: app, room: $0) })
                    start += Self.searchRoomsPerQuery
                }
            }
            candidates += try Self.queuedCandidates(context, app: app, rooms: scope, query)
            candidates.sort(by: >)
            candidates = Array(candidates.prefix(MessageSearchQuery.candidateLimit))
            let hits = try Self.checkedHits(context, app: app, user: user, rooms: Set(rooms), candidates, query)
            var page = Self.page(of: hits, query)
            try Self.attachReactions(context, app: app, to: &page)
            return page
        }
    }

    /// Every indexed match of the words alone, kept to the rooms in scope, when there are fewer
    /// than `limit` of them; nil when there are more. Intersecting with the rooms' tokens inside
    /// FTS5 reads every token's list (about 3 ms for 50 rooms over 1,000,000 messages), which a
    /// rare word does not need: its few matches' rooms are read by rowid instead.
    private static func allMatchesInScope(
        _ context: SQLContext, app: String, words: String, rooms: Set<String>, below limit: Int
    ) throws -> [Int64]? {
        guard limit > 0 else { return nil }
        let matches = try context.query(
            "SELECT rowid FROM message_search WHERE message_search MATCH $1 ORDER BY rowid DESC LIMIT $2",
            [.text("doc : (\(words))"), .int(limit)]
        ) { row in row.int64(0) }
        guard matches.count < limit else { return nil }
        guard !matches.isEmpty else { return [] }
        let ids = "[" + matches.map { String($0) }.joined(separator: ",") + "]"
        return try context.query(
            "SELECT id, room_id FROM messages WHERE id IN (SELECT value FROM json_each($1)) AND +app_id = $2",
            [.text(ids), .text(app)]
        ) { row in (id: row.int64(0), room: row.text(1)) }
        .filter { rooms.contains($0.room) }.map(\.id)
    }

    /// The messages still in the search queue (at most a batch of them, see Schema+Search.swift)
    /// of a room in scope that hold every word: found as soon as they are stored.
    private static func queuedCandidates(
        _ context: SQLContext, app: String, rooms: Set<String>, _ query: MessageSearchQuery
    ) throws -> [Int64] {
        try context.query(
            """
            SELECT m.id, m.room_id, m.search_doc FROM message_search_pending p CROSS JOIN messages m ON m.id = p.id
            WHERE m.app_id = $1 AND m.search_doc IS NOT NULL AND m.deleted_at IS NULL
            """, [.text(app)]
        ) { row in (id: row.int64(0), room: row.text(1), document: row.text(2)) }
        .filter { rooms.contains($0.room) && !wordCounts(in: $0.document, query).frequencies.contains(0) }
        .map(\.id)
    }

    /// The token of `room` in the index's `room` column: the hex of the app id, a unit
    /// separator and the room id, which no two rooms share (the triggers make the same in SQL).
    static func searchRoomToken(app: String, room: String) -> String {
        var token = ""
        for byte in app.utf8 + [0x1F] + room.utf8 {
            token += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        return token
    }

    /// The query's words as FTS5 strings: each quoted (the tokenizer's words hold no quote), the
    /// last followed by `*` when it is a prefix.
    static func matchWords(_ query: MessageSearchQuery) -> String {
        query.words.enumerated().map { index, word in
            let quoted = "\"" + word + "\""
            return index == query.words.count - 1 && query.lastWordIsPrefix ? quoted + " *" : quoted
        }.joined(separator: " AND ")
    }

    /// The newest candidates of the index with every word in `doc` and one of `roomTokens` in `room`.
    private static func indexCandidates(
        _ context: SQLContext, words: String, roomTokens: [String]
    ) throws -> [Int64] {
        let expression = "doc : (\(words)) AND room : (\(roomTokens.map { "\"\($0)\"" }.joined(separator: " OR ")))"
        return try context.query(
            "SELECT rowid FROM message_search WHERE message_search MATCH $1 ORDER BY rowid DESC LIMIT $2",
            [.text(expression), .int(MessageSearchQuery.candidateLimit)]
        ) { row in row.int64(0) }
    }

    /// The candidates' messages, read by id, keeping those of the app and of a room in scope,
    /// not deleted and not sent by a user `user` blocked, scored by their words.
    private static func checkedHits(
        _ context: SQLContext, app: String, user: String, rooms: Set<String>, _ candidates: [Int64], _ query: MessageSearchQuery
    ) throws -> [MessageSearchHit] {
        guard !candidates.isEmpty else { return [] }
        let blocked = try blockedSenders(context, app: app, user: user)
        let ids = "[" + candidates.map { String($0) }.joined(separator: ",") + "]"
        // `+app_id`: without the unary plus SQLite 3.40 reads the candidates through the
        // (app_id, …) unique index, walking every message of the app (300 ms at 1,000,000),
        // instead of one rowid lookup per candidate.
        let rows = try context.query(
            """
            SELECT \(messageColumns), search_doc FROM messages
            WHERE id IN (SELECT value FROM json_each($1)) AND +app_id = $2 AND deleted_at IS NULL
            """, [.text(ids), .text(app)]
        ) { row in (message: try decodeMessage(row), document: row.optionalText(messageColumnCount) ?? "") }
        let kept = rows.filter { rooms.contains($0.message.roomID) && !blocked.contains($0.message.senderID) }
        let counts = kept.map { wordCounts(in: $0.document, query) }
        let scores = bm25(lengths: counts.map(\.length), frequencies: counts.map(\.frequencies))
        return zip(kept, scores).map { MessageSearchHit(message: $0.message, score: $1) }
    }

    /// How many words `document` has, and how many times it holds each query word (the last
    /// also counted where it begins a word, when it is a prefix).
    static func wordCounts(in document: String, _ query: MessageSearchQuery) -> (length: Int, frequencies: [Int]) {
        var frequencies = [Int](repeating: 0, count: query.words.count)
        var length = 0
        let last = query.words.count - 1
        for word in document.split(separator: " ") {
            length += 1
            for (index, wanted) in query.words.enumerated()
            where word == wanted || (index == last && query.lastWordIsPrefix && word.hasPrefix(wanted)) {
                frequencies[index] += 1
            }
        }
        return (length, frequencies)
    }
}
