/// Message search on SQLite: FTS5 over `messages.search_doc` with every word behind its room's
/// tag (migration 16, Schema+SearchRoomTags.swift), and the messages above its watermark, not yet
/// moved into it (migration 17, Schema+SearchWatermark.swift).
///
/// One FTS5 query per group of rooms asks, for each room, for the room's tag followed by each of
/// the query's words (the last as a prefix while typed), OR-ed over the rooms, newest first, and
/// stops after ``MessageSearchQuery/candidateLimit`` rows: every list FTS5 reads holds only
/// matches in those rooms. Messages of users the caller blocks are left out before that cut:
/// when the caller blocks anyone, each page of matches is checked against the senders, and the
/// walk goes on below it until enough are kept, or ``searchBlockedReadLimit`` matches were read
/// (the older matches are then not looked at). The candidates are then read from `messages`,
/// which checks again that they are of the app and of a room in scope and not deleted, and
/// ranked by BM25 over their `search_doc` words (see ``bm25(lengths:frequencies:)``).
extension SQLChatStore {
    /// Rooms per FTS5 query: FTS5 nests each `OR` one level deeper and refuses expressions
    /// deeper than 256, so a member of many rooms is searched in groups.
    static let searchRoomsPerQuery = 64
    /// The most index matches one search reads when blocked senders' messages are left out of
    /// them: without it a caller blocking a prolific sender pays for every match in their rooms.
    static let searchBlockedReadLimit = 6_144

    func searchSQLite(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        try await read { context in
            let rooms = try Self.searchScope(context, app: app, user: user, room: query.room)
            guard !rooms.isEmpty else { return MessageSearchPage(hits: [], nextOffset: nil) }
            let scope = Set(rooms)
            let blocked = try Self.blockedSenders(context, app: app, user: user)
            let tags = try Self.searchTags(context, app: app, rooms: rooms)
            var candidates = try Self.indexCandidates(context, app: app, query, tags: tags, blocked: blocked).ids
            candidates += try Self.queuedCandidates(context, app: app, rooms: scope, blocked: blocked, query)
            candidates.sort(by: >)
            candidates = Array(candidates.prefix(MessageSearchQuery.candidateLimit))
            let hits = try Self.checkedHits(context, app: app, rooms: scope, blocked: blocked, candidates, query)
            var page = Self.page(of: hits, query)
            try Self.attachReactions(context, app: app, to: &page)
            return page
        }
    }

    /// The index tags of `rooms`, as the index writes them (a room without one has no messages
    /// indexed: tags are given when rooms are created).
    static func searchTags(_ context: SQLContext, app: String, rooms: [String]) throws -> [String] {
        try rooms.compactMap { room in
            try context.queryFirst(
                "SELECT printf('\(Schema.searchTagFormat)', tag) FROM search_rooms WHERE app_id = $1 AND room_id = $2",
                [.text(app), .text(room)]
            ) { $0.text(0) }
        }
    }

    /// The FTS5 expression for one room: its tag before each word, the last followed by `*` when
    /// it is a prefix (the tokenizer's words hold no quote).
    static func roomExpression(tag: String, _ query: MessageSearchQuery) -> String {
        let terms = query.words.enumerated().map { index, word in
            let quoted = "\"" + tag + word + "\""
            return index == query.words.count - 1 && query.lastWordIsPrefix ? quoted + " *" : quoted
        }
        return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " AND ") + ")"
    }

    /// The newest ``MessageSearchQuery/candidateLimit`` matches in the index within the rooms of
    /// `tags`, leaving out those of `blocked` senders before the cut: pages of that many are read
    /// newest first, each below the last, until enough are kept, the matches run out or
    /// `readLimit` matches were read. `read` is how many matches were read.
    static func indexCandidates(
        _ context: SQLContext, app: String, _ query: MessageSearchQuery, tags: [String], blocked: Set<String>,
        readLimit: Int = searchBlockedReadLimit
    ) throws -> (ids: [Int64], read: Int) {
        let limit = MessageSearchQuery.candidateLimit
        let expressions = stride(from: 0, to: tags.count, by: searchRoomsPerQuery).map { start in
            tags[start..<min(tags.count, start + searchRoomsPerQuery)].map { roomExpression(tag: $0, query) }
                .joined(separator: " OR ")
        }
        var kept: [Int64] = []
        var read = 0
        var below = Int64.max
        while true {
            let pageSize = min(limit, readLimit - read)
            var page: [Int64] = []
            for expression in expressions {
                page += try context.query(
                    "SELECT rowid FROM message_search WHERE message_search MATCH $1 AND rowid < $2 ORDER BY rowid DESC LIMIT $3",
                    [.text(expression), .integer(below), .int(pageSize)]
                ) { row in row.int64(0) }
            }
            if expressions.count > 1 { page.sort(by: >) }
            page = Array(page.prefix(pageSize))
            read += page.count
            kept += try withoutBlockedSenders(context, app: app, page, blocked: blocked)
            guard page.count == pageSize, kept.count < limit, read < readLimit, let last = page.last else { break }
            below = last
        }
        return (Array(kept.prefix(limit)), read)
    }

    /// `ids` (newest first) less the messages sent by a user in `blocked`.
    private static func withoutBlockedSenders(
        _ context: SQLContext, app: String, _ ids: [Int64], blocked: Set<String>
    ) throws -> [Int64] {
        guard !blocked.isEmpty, !ids.isEmpty else { return ids }
        let list = "[" + ids.map { String($0) }.joined(separator: ",") + "]"
        // `+app_id`: one rowid lookup per id, not a walk of the app's messages (see checkedHits).
        let dropped = Set(
            try context.query(
                "SELECT id, sender_id FROM messages WHERE id IN (SELECT value FROM json_each($1)) AND +app_id = $2",
                [.text(list), .text(app)]
            ) { row in (id: row.int64(0), sender: row.text(1)) }
            .filter { blocked.contains($0.sender) }.map(\.id))
        return dropped.isEmpty ? ids : ids.filter { !dropped.contains($0) }
    }

    /// The messages not yet in the index (above its watermark: at most about a batch of them, see
    /// Schema+SearchWatermark.swift) of a room in scope, not sent by a blocked user, that hold
    /// every word: found as soon as they are stored.
    private static func queuedCandidates(
        _ context: SQLContext, app: String, rooms: Set<String>, blocked: Set<String>, _ query: MessageSearchQuery
    ) throws -> [Int64] {
        // `+app_id`: read by id above the watermark, not through the (app_id, …) index.
        try context.query(
            """
            SELECT m.id, m.room_id, m.sender_id, m.search_doc FROM messages m
            WHERE m.id > \(Schema.searchWatermark) AND +m.app_id = $1 AND m.search_doc IS NOT NULL AND m.deleted_at IS NULL
            """, [.text(app)]
        ) { row in (id: row.int64(0), room: row.text(1), sender: row.text(2), document: row.text(3)) }
        .filter {
            rooms.contains($0.room) && !blocked.contains($0.sender) && !wordCounts(in: $0.document, query).frequencies.contains(0)
        }
        .map(\.id)
    }

    /// The candidates' messages, read by id, keeping those of the app and of a room in scope,
    /// not deleted and not sent by a `blocked` user, scored by their words.
    private static func checkedHits(
        _ context: SQLContext, app: String, rooms: Set<String>, blocked: Set<String>, _ candidates: [Int64],
        _ query: MessageSearchQuery
    ) throws -> [MessageSearchHit] {
        guard !candidates.isEmpty else { return [] }
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
