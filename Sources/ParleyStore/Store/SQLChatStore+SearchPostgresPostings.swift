/// The newest matches of a PostgreSQL search read from `message_words` (migration 19): each
/// room's postings of the word, newest first from an index-only scan (or of several words,
/// intersected), and only the matches kept read from the table.
///
/// A room's postings of a whole word are one run of the key, in id order, so the newest are read
/// first and a floor (from the walk's probe: the id above which the rooms should hold the matches
/// needed, with a margin) bounds the run. A prefix is a range of words, each its own run, so a
/// room's postings of it are sorted (a prefix is asked of the postings only when the walk would
/// read more messages than the range holds postings, ``SearchWalkPlan/postingsCost``).
///
/// The postings, newest first over all rooms, are checked against their rows one at a time until
/// ``MessageSearchQuery/candidateLimit`` are kept: app, room (a tag could be two rooms'), deletion
/// and blocked senders, as on every path. No room's postings are cut short before that check: a
/// room of another app or user sharing a room's tag, or a blocked sender, could hold the newest of
/// them, and the matches behind those must still count.
extension SQLChatStore {
    /// The newest candidates in scope from the postings of its one word, from `floor` up when
    /// given; when those above the floor hold fewer than needed, all are read.
    static func postgresPostingsCandidates(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, floor: Int64?
    ) throws -> [PostgresSearchCandidate] {
        guard let lexeme = scope.lexemes.first else { return [] }
        let sql = scope.prefix ? postingsPrefixSQL : postingsWordSQL
        let found = try postingsCandidates(context, sql, app: app, user: user, scope, floor: floor, lexemes: [lexeme])
        guard floor != nil, found.count < MessageSearchQuery.candidateLimit else { return found }
        return try postingsCandidates(context, sql, app: app, user: user, scope, floor: nil, lexemes: [lexeme])
    }

    /// The newest candidates in scope from the postings of all its words (whole words) from
    /// `floor` up, intersected room by room; nil when they hold fewer than needed (the matches
    /// below the floor are then unknown).
    static func postgresIntersectionCandidates(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, floor: Int64
    ) throws -> [PostgresSearchCandidate]? {
        let found = try postingsCandidates(
            context, postingsIntersectionSQL, app: app, user: user, scope, floor: floor, lexemes: scope.distinctLexemes)
        return found.count < MessageSearchQuery.candidateLimit && floor > 0 ? nil : found
    }

    private static func postingsCandidates(
        _ context: SQLContext, _ sql: String, app: String, user: String, _ scope: PostgresSearchScope, floor: Int64?,
        lexemes: [String]
    ) throws -> [PostgresSearchCandidate] {
        let parameters: [SQLValue] = [
            .text(app), .text(user), .text(postgresArray(scope.rooms)), .text(postgresArray(scope.roomTags)), .integer(floor ?? 0),
            .text(postgresArray(lexemes))
        ]
        return try context.query(sql, parameters) { try decodeCandidate($0, scope) }
    }

    /// Each posting in order, newest first, then its row: behind `OFFSET 0` the row's subquery
    /// stays a lateral one, read once per posting in the postings' order (already the order
    /// asked for, so nothing is sorted again) by its id alone (the primary key, cheaper to
    /// descend than the key of app, room and id the planner would take with the checks inside),
    /// and reading stops at the limit.
    private static func postingsSQL(_ postings: String) -> String {
        """
        SELECT c.id, c.search FROM (
            SELECT p.message_id, r.room
            FROM unnest($3::text[], $4::text[]) AS r(room, tag)
            CROSS JOIN LATERAL (\(postings)) AS p
            ORDER BY p.message_id DESC OFFSET 0
        ) AS p
        CROSS JOIN LATERAL (
            SELECT m.id, m.search, m.app_id, m.room_id, m.deleted_at, m.sender_id FROM messages m WHERE m.id = p.message_id OFFSET 0
        ) AS c
        WHERE c.app_id = $1 AND c.room_id = p.room AND c.deleted_at IS NULL
            AND c.sender_id <> ALL (ARRAY(SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2))
        ORDER BY p.message_id DESC LIMIT \(MessageSearchQuery.candidateLimit)
        """
    }

    /// `$4` holds the rooms' tags, `$5` the floor (0: none), `$6` the word (one element).
    static let postingsWordSQL = postingsSQL(
        """
        SELECT w.message_id FROM message_words w
            WHERE w.word = (r.tag || ($6::text[])[1]) COLLATE "C" AND w.message_id >= $5
        """)

    /// As ``postingsWordSQL`` for a prefix: every word from it up to it followed by the last
    /// code point, which no word holds (a word is letters, digits, marks and emoji).
    static let postingsPrefixSQL = postingsSQL(
        """
        SELECT DISTINCT w.message_id FROM message_words w
            CROSS JOIN LATERAL (SELECT r.tag || ($6::text[])[1]) AS q(prefix)
            WHERE w.word >= q.prefix COLLATE "C" AND w.word < (q.prefix || chr(1114111)) COLLATE "C"
                AND starts_with(w.word, q.prefix) AND w.message_id >= $5
        """)

    /// As ``postingsWordSQL`` for several distinct words (`$6`): the messages above the floor
    /// with a posting of each.
    static let postingsIntersectionSQL = postingsSQL(
        """
        SELECT w.message_id FROM message_words w
            WHERE w.word = ANY (ARRAY(SELECT (r.tag || l) COLLATE "C" FROM unnest($6::text[]) AS l)) AND w.message_id >= $5
            GROUP BY w.message_id HAVING count(*) = cardinality($6::text[])
        """)
}
