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
/// and blocked senders, as on every path. Each room's postings are first cut to as many as a
/// search keeps (the newest: a top-N sort per room, not a sort of them all), which is exact only
/// when every posting read is its room's own and no sender is blocked: the caller's blocks lift
/// the cut, and a posting of another room sharing the tag (32 bits of a hash) has the search
/// read again without it.
extension SQLChatStore {
    /// The newest candidates in scope from the postings of its one word, from `floor` up when
    /// given; when those above the floor hold fewer than needed, lower, then all.
    static func postgresPostingsCandidates(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, floor: Int64?
    ) throws -> [PostgresSearchCandidate] {
        guard let lexeme = scope.lexemes.first else { return [] }
        let postings = scope.prefix ? prefixPostings : wordPostings
        func candidates(from floor: Int64?) throws -> [PostgresSearchCandidate] {
            try postingsCandidates(context, postings, app: app, user: user, scope, floor: floor, lexemes: [lexeme])
        }
        let found = try candidates(from: floor)
        guard let floor, found.count < MessageSearchQuery.candidateLimit else { return found }
        // The probe overstated the word's share. Rather than read every posting (tens of
        // thousands for a common word), reach below the floor as far as the share the postings
        // above it show asks for; only if that falls short too are all read.
        if let lower = postingsFloorBelow(floor, found: found.map(\.id)) {
            let more = try candidates(from: lower)
            if more.count >= MessageSearchQuery.candidateLimit { return more }
        }
        return try candidates(from: nil)
    }

    /// A lower floor after the matches `found` above `floor` were too few: the ids above the
    /// floor scaled by the matches wanted (with the walk's margin) over those found; nil when
    /// none were found or the scale reaches below the first id.
    static func postingsFloorBelow(_ floor: Int64, found: [Int64]) -> Int64? {
        guard let newest = found.max(), newest >= floor else { return nil }
        let scale = SearchWalkPlan.margin * Double(MessageSearchQuery.candidateLimit) / Double(found.count)
        let lower = Double(newest) - Double(newest - floor + 1) * scale
        return lower >= 1 ? Int64(lower) : nil
    }

    /// The newest candidates in scope from the postings of all its words (whole words) from
    /// `floor` up, intersected room by room; nil when they hold fewer than needed (the matches
    /// below the floor are then unknown).
    static func postgresIntersectionCandidates(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, floor: Int64
    ) throws -> [PostgresSearchCandidate]? {
        let found = try postingsCandidates(
            context, intersectionPostings, app: app, user: user, scope, floor: floor, lexemes: scope.distinctLexemes)
        return found.count < MessageSearchQuery.candidateLimit && floor > 0 ? nil : found
    }

    /// The candidates of `postings` (SQL with the rooms' postings cut per room, then whole):
    /// cut, unless a posting read was another room's, which the cut may have counted in place of
    /// the room's own.
    private static func postingsCandidates(
        _ context: SQLContext, _ postings: (cut: String, whole: String), app: String, user: String, _ scope: PostgresSearchScope,
        floor: Int64?, lexemes: [String]
    ) throws -> [PostgresSearchCandidate] {
        let parameters: [SQLValue] = [
            .text(app), .text(user), .text(postgresArray(scope.rooms)), .text(postgresArray(scope.roomTags)), .integer(floor ?? 0),
            .text(postgresArray(lexemes))
        ]
        let cut = try context.query(postings.cut, parameters) { row in (try decodeCandidate(row, scope), row.text(2) == "t") }
        if cut.allSatisfy(\.1) { return cut.map(\.0) }
        return try context.query(postings.whole, parameters) { try decodeCandidate($0, scope) }
    }

    /// A room's postings are cut to as many as a search keeps, unless the caller blocks someone
    /// (whose messages may be many of the newest).
    private static let postingsPerRoom = """
        CASE WHEN EXISTS (SELECT 1 FROM user_blocks WHERE app_id = $1 AND blocker_id = $2) THEN NULL
            ELSE \(MessageSearchQuery.candidateLimit) END
        """

    /// The SQL of `postings` (a room's, given `r.tag`, `$5` the floor and `$6` the words, each
    /// ending in `LIMIT` and what it takes), cut per room and whole.
    private static func postingsSQL(_ postings: (String) -> String) -> (cut: String, whole: String) {
        (postingsSQL(postings(postingsPerRoom), own: false), postingsSQL(postings("ALL"), own: true))
    }

    /// Each posting in order, newest first, then its row: behind `OFFSET 0` the row's subquery
    /// stays a lateral one, read once per posting in the postings' order (already the order
    /// asked for, so nothing is sorted again) by its id alone (the primary key, cheaper to
    /// descend than the key of app, room and id the planner would take with the checks inside),
    /// and reading stops at the limit. Rows are the candidate's id, its vector and whether it is
    /// its room's own; with `own`, only those are read.
    private static func postingsSQL(_ postings: String, own: Bool) -> String {
        let isOwn = "(c.app_id = $1 AND c.room_id = p.room)"
        return """
            SELECT c.id, c.search, \(isOwn) FROM (
                SELECT p.message_id, r.room
                FROM unnest($3::text[], $4::text[]) AS r(room, tag)
                CROSS JOIN LATERAL (\(postings)) AS p
                ORDER BY p.message_id DESC OFFSET 0
            ) AS p
            CROSS JOIN LATERAL (
                SELECT m.id, m.search, m.app_id, m.room_id, m.deleted_at, m.sender_id FROM messages m WHERE m.id = p.message_id OFFSET 0
            ) AS c
            WHERE c.deleted_at IS NULL \(own ? "AND " + isOwn : "")
                AND c.sender_id <> ALL (ARRAY(SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2))
            ORDER BY p.message_id DESC LIMIT \(MessageSearchQuery.candidateLimit)
            """
    }

    /// A whole word (`$6`, one element) behind the room's tag.
    static let wordPostings = postingsSQL { limit in
        """
        SELECT w.message_id FROM message_words w
            WHERE w.word = (r.tag || ($6::text[])[1]) COLLATE "C" AND w.message_id >= $5
            ORDER BY w.message_id DESC LIMIT \(limit)
        """
    }

    /// A prefix (`$6`, one element) behind the room's tag: every word from it up to it followed
    /// by the last code point, which no word holds (a word is letters, digits, marks and emoji).
    static let prefixPostings = postingsSQL { limit in
        """
        SELECT DISTINCT w.message_id FROM message_words w
            CROSS JOIN LATERAL (SELECT r.tag || ($6::text[])[1]) AS q(prefix)
            WHERE w.word >= q.prefix COLLATE "C" AND w.word < (q.prefix || chr(1114111)) COLLATE "C"
                AND starts_with(w.word, q.prefix) AND w.message_id >= $5
            ORDER BY w.message_id DESC LIMIT \(limit)
        """
    }

    /// Several distinct words (`$6`): the messages with a posting of each.
    static let intersectionPostings = postingsSQL { limit in
        """
        SELECT w.message_id FROM message_words w
            WHERE w.word = ANY (ARRAY(SELECT (r.tag || l) COLLATE "C" FROM unnest($6::text[]) AS l)) AND w.message_id >= $5
            GROUP BY w.message_id HAVING count(*) = cardinality($6::text[])
            ORDER BY w.message_id DESC LIMIT \(limit)
        """
    }
}
