/// Message search on PostgreSQL: a `tsvector` per message, its words behind their room's tag
/// (migrations 13 and 14), and a GIN index.
///
/// A first statement reads the scope: the caller's rooms (or the one asked for) with their tags,
/// and the query's words made lexemes by the same SQL function that made the messages' (so both
/// are cut alike). The tsquery is then written here, every lexeme quoted, and passed whole as one
/// parameter, so the planner sees it.
///
/// The newest ``MessageSearchQuery/candidateLimit`` matches in scope are found one of three ways
/// (``postgresSearchRoute``):
/// - a walk over the newest messages of each room (``searchWalk``), enough for words in many of
///   the rooms' messages, which the index would hand over by the thousand, unordered;
/// - the words' rows in `message_words` (migration 19), read newest first, for one word in many
///   messages, and intersected for several (``postgresPostingsCandidates``);
/// - otherwise the GIN index, asked room by room for the words behind the room's tag, so its
///   postings, and the rows read from the table, are the matches in scope.
///
/// Every row is checked again for app, room, deletion and blocks: a tag only narrows the index
/// scan (two rooms could share one).
///
/// The score is BM25 (k1 = 1.2, b = 0.75, average length over the candidates) with every query
/// word weighted 1: each candidate holds each word, so the words' inverse document frequencies
/// over the candidates would scale every score alike.
extension SQLChatStore {
    /// Characters of a room's tag (hex digits) before each word of its messages' vectors.
    static let searchTagLength = 8

    func searchPostgres(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        try await read { context in
            let scope = try Self.postgresSearchScope(context, app: app, user: user, query)
            if scope.rooms.isEmpty, query.room != nil { _ = try Self.searchScope(context, app: app, user: user, room: query.room) }
            guard !scope.rooms.isEmpty, !scope.lexemes.isEmpty else { return MessageSearchPage(hits: [], nextOffset: nil) }
            let candidates: [PostgresSearchCandidate]
            switch try Self.postgresSearchRoute(context, app: app, user: user, scope) {
            case .newest(let ids): candidates = try Self.postgresCandidates(context, ids: ids, scope)
            case .postings(let floor): candidates = try Self.postgresPostingsCandidates(context, app: app, user: user, scope, floor: floor)
            case .intersection(let floor):
                candidates =
                    try Self.postgresIntersectionCandidates(context, app: app, user: user, scope, floor: floor)
                    ?? Self.postgresIndexCandidates(context, app: app, user: user, scope)
            case .index: candidates = try Self.postgresIndexCandidates(context, app: app, user: user, scope)
            }
            let scores = Self.bm25(lengths: candidates.map(\.length), frequencies: candidates.map(\.frequencies))
            let (ranked, nextOffset) = Self.rankedPage(Array(zip(candidates.map(\.id), scores)), query) { ($0.1, $0.0) }
            var page = MessageSearchPage(hits: try Self.postgresHits(context, app: app, ranked), nextOffset: nextOffset)
            try Self.attachReactions(context, app: app, to: &page)
            return page
        }
    }

    /// The rooms in scope with their tags, and the query's lexemes, in one statement.
    static func postgresSearchScope(
        _ context: SQLContext, app: String, user: String, _ query: MessageSearchQuery
    ) throws -> PostgresSearchScope {
        var scope = PostgresSearchScope(prefix: query.lastWordIsPrefix)
        let rows = try context.query(
            postgresSearchScopeSQL, [.text(app), .text(user), .text(query.words.joined(separator: " ")), .text(query.room)]
        ) { row in (kind: row.int(0), value: row.text(1), lexeme: row.text(2), count: row.int(4)) }
        for row in rows {
            switch row.kind {
            case 0: scope.lexemes.append(row.value)
            case 1:
                scope.rooms.append(row.value)
                scope.roomTags.append(row.lexeme)
                scope.roomMessages += row.count
            default: break
            }
        }
        return scope
    }

    /// Rows: the lexemes (0) in order, then the rooms (1) with their tag and their last `seq`
    /// (about their messages).
    static let postgresSearchScopeSQL = """
        SELECT 0, w.lexeme, '', w.n, 0 FROM unnest(parley_search_words($3)) WITH ORDINALITY AS w(lexeme, n)
        UNION ALL
        SELECT 1, m.room_id, parley_search_tag($1, m.room_id), 0, r.last_seq
        FROM memberships m JOIN rooms r ON r.app_id = m.app_id AND r.id = m.room_id
        WHERE m.app_id = $1 AND m.user_id = $2 AND ($4::text IS NULL OR m.room_id = $4)
        ORDER BY 1, 4
        """

    /// The newest candidates by the GIN index: the words behind each room's tag, one small scan
    /// per room.
    static func postgresIndexCandidates(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope
    ) throws -> [PostgresSearchCandidate] {
        let parameters: [SQLValue] = [
            .text(app), .text(user), .text(postgresArray(scope.roomQueries)), .text(postgresArray(scope.rooms))
        ]
        return try context.query(postgresIndexSearchSQL, parameters) { try decodeCandidate($0, scope) }
    }

    /// The candidates of the walk, by id, checked again (a message may be deleted since).
    static func postgresCandidates(
        _ context: SQLContext, ids: [Int64], _ scope: PostgresSearchScope
    ) throws -> [PostgresSearchCandidate] {
        guard !ids.isEmpty else { return [] }
        let parameters: [SQLValue] = [.text("{" + ids.map(String.init).joined(separator: ",") + "}")]
        return try context.query(postgresIDSearchSQL, parameters) { try decodeCandidate($0, scope) }
    }

    static func decodeCandidate(_ row: any SQLRow, _ scope: PostgresSearchScope) throws -> PostgresSearchCandidate {
        let vector = PostgresVectorText(row.text(1))
        return PostgresSearchCandidate(
            id: row.int64(0), length: vector.length,
            frequencies: vector.frequencies(of: scope.lexemes, tagBytes: searchTagLength, lastIsPrefix: scope.prefix))
    }

    /// The page's messages, in the order ranked, each with its score. One deleted since its
    /// candidate was read is left out.
    static func postgresHits(_ context: SQLContext, app: String, _ ranked: ArraySlice<(Int64, Double)>) throws -> [MessageSearchHit] {
        guard !ranked.isEmpty else { return [] }
        let ids = "{" + ranked.map { String($0.0) }.joined(separator: ",") + "}"
        let messages = try context.query(postgresPageSQL, [.text(app), .text(ids)]) { try decodeMessage($0) }
        let byID = Dictionary(messages.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ranked.compactMap { id, score in byID[id].map { MessageSearchHit(message: $0, score: score) } }
    }

    static let postgresPageSQL = """
        SELECT \(messageColumns) FROM messages WHERE app_id = $1 AND id = ANY ($2::bigint[]) AND deleted_at IS NULL
        """

    /// One index scan per room, each for that room's query (`$3`, in the order of the rooms in
    /// `$4`): a GIN scan evaluates its query on every posting of its words, so 50 queries of two
    /// operands cost a fifth of one query of 100 (two common words over 50 rooms: 3.6 ms against
    /// 18). Each scan stands behind `OFFSET 0`, so the planner keeps it a bitmap scan of the GIN
    /// index with the room check a filter on its rows, rather than walk the room's messages by
    /// the B-tree; the query is a lateral value, so the planner takes the default share of
    /// matches instead of statistics that do not know the rooms' tags.
    static let postgresIndexSearchSQL = """
        WITH candidates AS (
            SELECT m.id, m.search
            FROM unnest($4::text[], $3::text[]) AS r(room, query)
            CROSS JOIN LATERAL (SELECT * FROM messages WHERE search @@ r.query::tsquery OFFSET 0) AS m
            WHERE m.app_id = $1 AND m.room_id = r.room AND m.deleted_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.app_id = $1 AND b.blocker_id = $2 AND b.blocked_id = m.sender_id)
            ORDER BY m.id DESC LIMIT \(MessageSearchQuery.candidateLimit)
        )
        \(postgresCandidatesSQL)
        """

    static let postgresIDSearchSQL = """
        WITH candidates AS (
            SELECT m.id, m.search FROM messages m
            WHERE m.id = ANY ($1::bigint[]) AND m.deleted_at IS NULL
        )
        \(postgresCandidatesSQL)
        """

    /// Each candidate's id and vector in text, newest first: its length and how often it holds
    /// each query word are counted in Swift (``PostgresVectorText``); only the page's messages
    /// are then read whole (``postgresHits``).
    private static let postgresCandidatesSQL = """
        SELECT c.id, c.search FROM candidates AS c ORDER BY c.id DESC
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

    /// A PostgreSQL array literal of texts, every element quoted (`"`, `\` escaped).
    static func postgresArray(_ values: [String]) -> String {
        let elements = values.map { value in
            "\"" + PostgresSearchScope.escaping(value, ["\\": "\\\\", "\"": "\\\""]) + "\""
        }
        return "{" + elements.joined(separator: ",") + "}"
    }

    /// Integers separated by spaces.
    static func integers(_ text: String) -> [Int] {
        text.split(separator: " ").compactMap { Int($0) }
    }
}
