/// Full-text search over messages, kept in step with them in the same transactions: a stored
/// message is found as soon as its send returns, an edit finds the new text and not the old,
/// and a deleted or erased message (or one of a deleted room) is not found. `SQLChatStore`
/// implements it on both engines.
public protocol SearchStore: Sendable {
    /// Messages containing every word of `query` (the last as a prefix when the query says so),
    /// from the rooms `user` is a member of, or from `query.room` only.
    ///
    /// Never a message of a room `user` is not a member of at the time of the search, never a
    /// deleted one, never one sent by a user `user` has blocked. The newest
    /// ``MessageSearchQuery/candidateLimit`` matches in scope are ranked by BM25 over their words;
    /// `query.offset` and `query.limit` page the ranking.
    ///
    /// `notFound` for an unknown `query.room`, `notMember` when `user` is not its member,
    /// `invalidArgument` for a query without words.
    func searchMessages(app: String, user: String, _ query: MessageSearchQuery) async throws -> MessageSearchPage
}
