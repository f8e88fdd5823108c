/// The newest matches of a one-word PostgreSQL search, read from `message_words` (migration 19):
/// each room's postings of the word, newest first from an index-only scan, and only the matches
/// kept read from the table.
///
/// A room's postings of a whole word are one run of the key, in id order, so the newest are read
/// first and a floor (from the walk's probe: the id above which the rooms should hold the matches
/// needed, with a margin) bounds the run. A prefix is a range of words, each its own run, so a
/// room's postings of it are sorted (a prefix is asked of the postings only when the walk would
/// read more messages than the range holds postings, ``SearchWalkPlan/postingsCost``).
///
/// The postings, newest first over all rooms, are checked against their rows one at a time until
/// ``MessageSearchQuery/candidateLimit`` are kept: app, room (a tag could be two rooms'), deletion
/// and blocked senders, as on every path.
extension SQLChatStore {
    /// The newest candidates in scope from the postings of its one word, from `floor` up when
    /// given; when those above the floor hold fewer than needed, all are read.
    static func postgresPostingsCandidates(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, floor: Int64?
    ) throws -> [PostgresSearchCandidate] {
        guard let lexeme = scope.lexemes.first else { return [] }
        let words = scope.roomTags.map { $0 + lexeme }
        let sql = scope.prefix ? postingsPrefixSQL : postingsWordSQL
        func candidates(from floor: Int64?) throws -> [PostgresSearchCandidate] {
            let parameters: [SQLValue] = [
                .text(app), .text(user), .text(postgresArray(scope.rooms)), .text(postgresArray(words)), .integer(floor ?? 0)
            ]
            return try context.query(sql, parameters) { try decodeCandidate($0, scope) }
        }
        let found = try candidates(from: floor)
        guard floor != nil, found.count < MessageSearchQuery.candidateLimit else { return found }
        return try candidates(from: nil)
    }

    /// A room asks for at most as many postings as a search keeps, unless the caller blocks
    /// someone (whose messages may be many of the newest): then for all.
    private static let postingsPerRoom = """
        CASE WHEN EXISTS (SELECT 1 FROM user_blocks WHERE app_id = $1 AND blocker_id = $2) THEN NULL
            ELSE \(MessageSearchQuery.candidateLimit) END
        """

    /// Each posting in order, newest first, then its row: behind `OFFSET 0` the row's subquery
    /// stays a lateral one, read once per posting in the postings' order (already the order
    /// asked for, so nothing is sorted again), and reading stops at the limit.
    private static func postingsSQL(_ postings: String) -> String {
        """
        SELECT c.id, c.search FROM (
            SELECT p.message_id, r.room
            FROM unnest($3::text[], $4::text[]) AS r(room, word)
            CROSS JOIN LATERAL (\(postings)) AS p
            ORDER BY p.message_id DESC OFFSET 0
        ) AS p
        CROSS JOIN LATERAL (
            SELECT m.id, m.search FROM messages m
            WHERE m.id = p.message_id AND m.app_id = $1 AND m.room_id = p.room AND m.deleted_at IS NULL
                AND m.sender_id <> ALL (ARRAY(SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2))
            OFFSET 0
        ) AS c
        ORDER BY p.message_id DESC LIMIT \(MessageSearchQuery.candidateLimit)
        """
    }

    /// `$4` holds each room's word behind its tag; `$5` the floor (0: none).
    static let postingsWordSQL = postingsSQL(
        """
        SELECT w.message_id FROM message_words w
            WHERE w.word = r.word COLLATE "C" AND w.message_id >= $5
            ORDER BY w.message_id DESC LIMIT \(postingsPerRoom)
        """)

    /// `$4` holds each room's prefix behind its tag: every word from it up to it followed by
    /// the last code point, which no word holds (a word is letters, digits, marks and emoji).
    static let postingsPrefixSQL = postingsSQL(
        """
        SELECT DISTINCT w.message_id FROM message_words w
            WHERE w.word >= r.word COLLATE "C" AND w.word < (r.word || chr(1114111)) COLLATE "C"
                AND starts_with(w.word, r.word) AND w.message_id >= $5
            ORDER BY w.message_id DESC LIMIT \(postingsPerRoom)
        """)
}
