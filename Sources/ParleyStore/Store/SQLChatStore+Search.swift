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
        let ranked = candidates.sorted { ($0.score, $0.message.id) > ($1.score, $1.message.id) }
        guard query.offset < ranked.count else { return MessageSearchPage(hits: [], nextOffset: nil) }
        let end = min(ranked.count, query.offset + query.limit)
        return MessageSearchPage(hits: Array(ranked[query.offset..<end]), nextOffset: end < ranked.count ? end : nil)
    }
}
