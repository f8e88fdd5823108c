import ParleyWireCore

/// Message search (`GET /v1/search`): the words of text parts and file names, over every room
/// the user belongs to or one of them, best match first, paged by offset.
extension ParleyClient {
    /// The most results one page can hold (the server's `limit` bound).
    public static let searchPageLimit = 50

    /// Searches the user's rooms, or only `roomID`, for messages with every word of `text`;
    /// the last word also matches as a prefix when it has three or more characters and `text`
    /// does not end in a space. Pass a page's ``SearchResultPage/nextOffset`` as `offset` to
    /// read the next one.
    ///
    /// The server never returns deleted messages, messages of users this user blocks, or
    /// messages of rooms the user is not a member of. A blank `text` fails with
    /// ``ParleyError/Code/invalidArgument`` without asking the server; other bad queries (too
    /// long, more than 8 words, `limit` beyond 1–50) fail with the server's 400
    /// `invalid_parameter`, an unknown room with 404 and a room the user is not in with 403.
    public func search(
        _ text: String, in roomID: String? = nil, limit: Int = 20, offset: Int = 0
    ) async throws(ParleyError) -> SearchResultPage {
        guard text.contains(where: { !$0.isWhitespace }) else { throw ParleyError(.invalidArgument, "search: the query is blank") }
        var query = [("q", text), ("limit", String(limit))]
        if offset > 0 { query.append(("offset", String(offset))) }
        if let roomID { query.append(("room", roomID)) }
        return try SearchResultPage(json: try await api.json("GET", "/v1/search", query: query))
    }
}
