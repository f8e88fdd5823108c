/// Message search on SQLite: FTS5 over `messages.search_doc` (migration 13, Schema+Search.swift).
///
/// One FTS5 query per group of rooms asks for the query's words in `doc` and any of the rooms'
/// tokens in `room`, newest first, so the index intersects them and stops after
/// ``MessageSearchQuery/candidateLimit`` rows. Each candidate is then read from `messages`, which
/// checks again that it is of the app and of a room in scope and not deleted, and leaves out
/// blocked senders; the candidates are ranked by FTS5's BM25 (words only: the room column
/// weighs nothing).
extension SQLChatStore {
    /// Rooms per FTS5 query: FTS5 nests each `OR` one level deeper and refuses expressions
    /// deeper than 256, so a member of many rooms is searched in groups.
    static let searchRoomsPerQuery = 64

    func searchSQLite(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        let words = Self.matchWords(query)
        return try await read { context in
            let rooms = try Self.searchScope(context, app: app, user: user, room: query.room)
            guard !rooms.isEmpty else { return MessageSearchPage(hits: [], nextOffset: nil) }
            var candidates: [(id: Int64, score: Double)] = []
            var start = 0
            while start < rooms.count {
                let group = rooms[start..<min(rooms.count, start + Self.searchRoomsPerQuery)]
                candidates += try Self.indexCandidates(
                    context, words: words, roomTokens: group.map { Self.searchRoomToken(app: app, room: $0) })
                start += Self.searchRoomsPerQuery
            }
            if rooms.count > Self.searchRoomsPerQuery {
                candidates.sort { $0.id > $1.id }
                candidates = Array(candidates.prefix(MessageSearchQuery.candidateLimit))
            }
            let hits = try Self.checkedHits(context, app: app, user: user, rooms: Set(rooms), candidates)
            var page = Self.page(of: hits, query)
            try Self.attachReactions(context, app: app, to: &page)
            return page
        }
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
    ) throws -> [(id: Int64, score: Double)] {
        let expression = "doc : (\(words)) AND room : (\(roomTokens.map { "\"\($0)\"" }.joined(separator: " OR ")))"
        return try context.query(
            """
            SELECT rowid, bm25(message_search, 1.0, 0.0) FROM message_search WHERE message_search MATCH $1
            ORDER BY rowid DESC LIMIT $2
            """, [.text(expression), .int(MessageSearchQuery.candidateLimit)]
        ) { row in (id: row.int64(0), score: -row.double(1)) }
    }

    /// The candidates' messages, read by id, keeping those of the app and of a room in scope,
    /// not deleted and not sent by a user `user` blocked.
    private static func checkedHits(
        _ context: SQLContext, app: String, user: String, rooms: Set<String>, _ candidates: [(id: Int64, score: Double)]
    ) throws -> [MessageSearchHit] {
        guard !candidates.isEmpty else { return [] }
        let blocked = try blockedSenders(context, app: app, user: user)
        let scores = Dictionary(candidates.map { ($0.id, $0.score) }, uniquingKeysWith: { first, _ in first })
        let ids = "[" + candidates.map { String($0.id) }.joined(separator: ",") + "]"
        // `+app_id`: without the unary plus SQLite reads the candidates through the (app_id, …)
        // unique index, walking every message of the app (300 ms at 1,000,000), not by rowid.
        let messages = try context.query(
            """
            SELECT \(messageColumns) FROM messages
            WHERE id IN (SELECT value FROM json_each($1)) AND +app_id = $2 AND deleted_at IS NULL
            """, [.text(ids), .text(app)]
        ) { try decodeMessage($0) }
        return messages.compactMap { message in
            guard rooms.contains(message.roomID), !blocked.contains(message.senderID), let score = scores[message.id] else { return nil }
            return MessageSearchHit(message: message, score: score)
        }
    }
}
