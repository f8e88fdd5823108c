/// Message search on PostgreSQL: a `tsvector` per message and a GIN index (migration 13).
///
/// One statement finds the candidates: the caller's rooms (or the one asked for) from their
/// memberships, the query's words made lexemes by the same SQL function that made the messages'
/// (so both are cut alike), the tsquery of those words (the last as a prefix when asked) and of
/// the rooms' lexemes, then the newest ``MessageSearchQuery/candidateLimit`` rows in scope, each
/// with its length in words and how often it holds each query word. The rows are always checked
/// for app, room membership, deletion and blocks: the room lexemes only narrow the index scan
/// (two rooms could share one).
///
/// The score is BM25 (k1 = 1.2, b = 0.75, average length over the candidates) with every query
/// word weighted 1: each candidate holds each word, so the words' inverse document frequencies
/// over the candidates would scale every score alike.
extension SQLChatStore {
    /// Above this many rooms in scope the tsquery no longer lists the rooms' lexemes (thousands
    /// of alternatives cost the index more than they save); the rows' room check scopes alone.
    static let searchRoomLexemeLimit = 256

    func searchPostgres(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        let parameters: [SQLValue] = [
            .text(app), .text(user), .text(query.words.joined(separator: " ")), .text(query.room),
            .text(query.lastWordIsPrefix ? "true" : "false")
        ]
        return try await read { context in
            let candidates = try context.query(Self.postgresSearchSQL, parameters) { row in
                (
                    message: try Self.decodeMessage(row), length: row.int(Self.messageColumnCount),
                    frequencies: Self.integers(row.text(Self.messageColumnCount + 1))
                )
            }
            if candidates.isEmpty, let room = query.room { try Self.requireSearchableRoom(context, app: app, room: room, user: user) }
            let scores = Self.bm25(lengths: candidates.map(\.length), frequencies: candidates.map(\.frequencies))
            var page = Self.page(of: zip(candidates, scores).map { MessageSearchHit(message: $0.message, score: $1) }, query)
            try Self.attachReactions(context, app: app, to: &page.hits)
            return page
        }
    }

    static let postgresSearchSQL = """
        WITH scope AS (
            SELECT room_id FROM memberships WHERE app_id = $1 AND user_id = $2 AND ($4::text IS NULL OR room_id = $4)
        ),
        terms AS (
            SELECT w.lexeme, w.n, ($5::boolean AND w.n = count(*) OVER ()) AS prefix
            FROM unnest(parley_search_words($3)) WITH ORDINALITY AS w(lexeme, n)
        ),
        wanted AS (
            SELECT CASE WHEN (SELECT count(*) FROM scope) <= \(searchRoomLexemeLimit)
                THEN words && (SELECT string_agg('''' || parley_search_room($1, room_id) || '''', ' | ') FROM scope)::tsquery
                ELSE words END AS query
            FROM (
                SELECT string_agg('''' || lexeme || '''' || CASE WHEN prefix THEN ':*' ELSE '' END, ' & ' ORDER BY n)::tsquery AS words
                FROM terms
            ) AS q
        ),
        candidates AS (
            SELECT \(qualified(messageColumns, "m")), m.search FROM messages m
            WHERE m.search @@ (SELECT query FROM wanted)
                AND m.app_id = $1 AND m.room_id IN (SELECT room_id FROM scope) AND m.deleted_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.app_id = $1 AND b.blocker_id = $2 AND b.blocked_id = m.sender_id)
            ORDER BY m.id DESC LIMIT \(MessageSearchQuery.candidateLimit)
        )
        SELECT \(qualified(messageColumns, "c")),
            (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(c.search) AS u WHERE left(u.lexeme, 1) <> '#'),
            array_to_string(ARRAY(
                SELECT (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(c.search) AS u
                        WHERE u.lexeme = t.lexeme OR (t.prefix AND starts_with(u.lexeme, t.lexeme)))
                FROM terms AS t ORDER BY t.n), ' ')
        FROM candidates AS c ORDER BY c.id DESC
        """

    /// BM25 of each candidate from its length in words and how often it holds each query word.
    static func bm25(lengths: [Int], frequencies: [[Int]]) -> [Double] {
        let k1 = 1.2
        let b = 0.75
        guard !lengths.isEmpty else { return [] }
        let averageLength = max(1, Double(lengths.reduce(0, +)) / Double(lengths.count))
        return zip(lengths, frequencies).map { length, counts in
            let norm = k1 * (1 - b + b * Double(length) / averageLength)
            return counts.reduce(0) { score, count in
                let frequency = Double(count)
                return score + frequency * (k1 + 1) / (frequency + norm)
            }
        }
    }

    /// `notFound` for an unknown room, `notMember` when `user` is not in it; asked only when a
    /// one-room search found nothing, to tell those apart from an empty answer.
    private static func requireSearchableRoom(_ context: SQLContext, app: String, room: String, user: String) throws {
        guard try roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
        let member = try context.queryFirst(
            "SELECT 1 FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id = $3",
            [.text(app), .text(room), .text(user)]) { _ in true } ?? false
        guard member else { throw StoreError(.notMember, "user \(user) is not a member of room \(room)") }
    }

    /// Reaction counts for the hits of a page, room by room.
    static func attachReactions(_ context: SQLContext, app: String, to hits: inout [MessageSearchHit]) throws {
        let byRoom = Dictionary(grouping: hits.indices, by: { hits[$0].message.roomID })
        for (room, indices) in byRoom {
            let ordered = indices.sorted { hits[$0].message.seq < hits[$1].message.seq }
            var messages = ordered.map { hits[$0].message }
            try attachReactions(context, app: app, room: room, to: &messages)
            for (index, message) in zip(ordered, messages) { hits[index].message = message }
        }
    }

    /// Integers separated by spaces.
    private static func integers(_ text: String) -> [Int] {
        text.split(separator: " ").compactMap { Int($0) }
    }
}
