/// Message search on the SQL store (see ``SearchStore``): the checks both engines share, then
/// each engine's own index.
extension SQLChatStore: SearchStore {
    public func searchMessages(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        try validateSearch(query)
        switch database.dialect {
        case .sqlite: return try await searchSQLite(app: app, user: user, query)
        case .postgres: return try await searchPostgres(app: app, user: user, query)
        }
    }

    private func validateSearch(_ query: MessageSearchQuery) throws {
        guard !query.words.isEmpty else { throw StoreError(.invalidArgument, "a search needs at least one word") }
        guard query.words.allSatisfy({ !$0.isEmpty && $0.utf8.count <= SearchTokenizer.maximumWordBytes }) else {
            throw StoreError(.invalidArgument, "search words must be 1 to \(SearchTokenizer.maximumWordBytes) bytes")
        }
        guard query.limit > 0, query.offset >= 0 else { throw StoreError(.invalidArgument, "search limit and offset out of range") }
    }

    /// Orders candidates best first (higher score, then newer) and cuts the page out of them.
    static func page(of candidates: [MessageSearchHit], _ query: MessageSearchQuery) -> MessageSearchPage {
        let (hits, nextOffset) = rankedPage(candidates, query) { ($0.score, $0.message.id) }
        return MessageSearchPage(hits: Array(hits), nextOffset: nextOffset)
    }

    /// `candidates` best first by `rank` (score, then id: higher first) and the page `query` asks
    /// for, with the next page's offset (nil on the last).
    static func rankedPage<Candidate>(
        _ candidates: [Candidate], _ query: MessageSearchQuery, by rank: (Candidate) -> (Double, Int64)
    ) -> (page: ArraySlice<Candidate>, nextOffset: Int?) {
        let ranked = candidates.sorted { rank($0) > rank($1) }
        guard query.offset < ranked.count else { return ([], nil) }
        let end = min(ranked.count, query.offset + query.limit)
        return (ranked[query.offset..<end], end < ranked.count ? end : nil)
    }

    /// The rooms a search of `user` looks in: `room` alone (`notFound` when there is no such
    /// room, `notMember` when `user` is not its member), or every room `user` is a member of.
    static func searchScope(_ context: SQLContext, app: String, user: String, room: String?) throws -> [String] {
        guard let room else {
            return try context.query(
                "SELECT room_id FROM memberships WHERE app_id = $1 AND user_id = $2", [.text(app), .text(user)]
            ) { $0.text(0) }
        }
        let member = try context.queryFirst(
            "SELECT 1 FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id = $3", [.text(app), .text(room), .text(user)]
        ) { _ in true }
        if member == nil {
            guard try roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
            throw StoreError(.notMember, "user \(user) is not a member of room \(room)")
        }
        return [room]
    }

    /// The users `user` has blocked, whose messages a search of theirs leaves out.
    static func blockedSenders(_ context: SQLContext, app: String, user: String) throws -> Set<String> {
        Set(
            try context.query(
                "SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2", [.text(app), .text(user)]
            ) { $0.text(0) })
    }

    /// Adds reaction counts to a page's messages (only the page's: ranking needs none).
    /// One statement for the whole page: on PostgreSQL each statement is a round trip.
    static func attachReactions(_ context: SQLContext, app: String, to page: inout MessageSearchPage) throws {
        guard !page.hits.isEmpty else { return }
        var parameters: [SQLValue] = [.text(app)]
        var messages: [String] = []
        for hit in page.hits {
            messages.append("(room_id = $\(parameters.count + 1) AND seq = $\(parameters.count + 2))")
            parameters += [.text(hit.message.roomID), .integer(hit.message.seq)]
        }
        let rows = try context.query(
            """
            SELECT room_id, seq, emoji, COUNT(*) FROM reactions WHERE app_id = $1 AND (\(messages.joined(separator: " OR ")))
            GROUP BY room_id, seq, emoji ORDER BY emoji
            """, parameters
        ) { row in (room: row.text(0), seq: row.int64(1), count: ReactionCount(emoji: row.text(2), count: row.int(3))) }
        guard !rows.isEmpty else { return }
        for index in page.hits.indices {
            let message = page.hits[index].message
            page.hits[index].message.reactions = rows.filter { $0.room == message.roomID && $0.seq == message.seq }.map(\.count)
        }
    }
}
