/// Message search on SQLite: FTS5 over `messages.search_doc` (migration 13).
extension SQLChatStore {
    func searchSQLite(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        throw StoreError(.internal, "search on SQLite is not built yet")
    }
}
