/// Message search on PostgreSQL: a `tsvector` per message and a GIN index (migration 13).
extension SQLChatStore {
    func searchPostgres(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage {
        throw StoreError(.internal, "search on PostgreSQL is not built yet")
    }
}
