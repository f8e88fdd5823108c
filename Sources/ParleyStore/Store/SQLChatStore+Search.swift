/// Full-text search over messages (migration 8): FTS5 on SQLite, a `tsvector` with a GIN index
/// on PostgreSQL, the same words on both (`SearchTokenizer`).
extension SQLChatStore {
    public func searchMessages(app: String, _ search: MessageSearch) async throws -> [SearchHit] {
        guard let query = SearchQuery(search.text) else {
            throw StoreError(.invalidArgument, "the query has no searchable words")
        }
        guard search.limit > 0, search.offset >= 0 else {
            throw StoreError(.invalidArgument, "limit must be positive, offset not negative")
        }
        let statement = Self.searchStatement(app: app, search, query, dialect: database.dialect)
        return try await read { context in
            let messages = try context.query(statement.sql, statement.parameters) { try Self.decodeMessage($0) }
            return try messages.map { found in
                var message = found
                message.reactions = try Self.reactionCounts(context, app: app, room: message.roomID, seq: message.seq)
                return SearchHit(message: message, highlights: query.highlights(in: message.parts))
            }
        }
    }

    /// The search as one statement: the match, the scope (the user's memberships and/or one
    /// room), live messages only, best first (newest first among equals), one page.
    static func searchStatement(app: String, _ search: MessageSearch, _ query: SearchQuery, dialect: SQLDialect) -> SQLStatement {
        var parameters: [SQLValue] = [.text(app)]
        var scope = ""
        if let user = search.user {
            parameters.append(.text(user))
            scope += " AND m.room_id IN (SELECT room_id FROM memberships WHERE app_id = $1 AND user_id = $\(parameters.count))"
        }
        if let room = search.room {
            parameters.append(.text(room))
            scope += " AND m.room_id = $\(parameters.count)"
        }
        let columns = qualified(messageColumns, "m")
        let page = "LIMIT $\(parameters.count + 2) OFFSET $\(parameters.count + 3)"
        let sql: String
        switch dialect {
        case .sqlite:
            parameters.append(.text(query.fts5Expression))
            sql = """
                SELECT \(columns) FROM message_search JOIN messages m ON m.id = message_search.rowid
                WHERE message_search MATCH $\(parameters.count) AND m.app_id = $1 AND m.deleted_at IS NULL\(scope)
                ORDER BY bm25(message_search), m.id DESC \(page)
                """
        case .postgres:
            parameters.append(.text(query.tsquery))
            sql = """
                SELECT \(columns) FROM messages m CROSS JOIN (SELECT $\(parameters.count)::tsquery AS q) s
                WHERE m.search_vector @@ s.q AND m.app_id = $1 AND m.deleted_at IS NULL\(scope)
                ORDER BY ts_rank_cd(m.search_vector, s.q) DESC, m.id DESC \(page)
                """
        }
        return SQLStatement(sql, parameters + [.int(search.limit), .int(search.offset)])
    }
}
