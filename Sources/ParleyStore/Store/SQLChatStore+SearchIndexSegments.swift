extension SQLChatStore {
    /// SQLite: how many segments the search index is in (a search looks each room's words up in
    /// every one; the writer merges them while idle, see ``SearchIndexMerger``); nil on PostgreSQL.
    public func searchIndexSegments() async throws -> Int? {
        guard database.dialect == .sqlite else { return nil }
        return try await database.read { context in try Schema.searchIndexStructure(context).segments }
    }
}
