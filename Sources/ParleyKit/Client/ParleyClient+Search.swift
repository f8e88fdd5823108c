import ParleyWireCore

/// Message search.
extension ParleyClient {
    /// Searches the messages of every room the user is a member of, or of `roomID` only; best
    /// match first. Pass a page's ``SearchPage/nextCursor`` as `cursor` for the next page.
    ///
    /// Every whitespace-separated term must match; case, common diacritics and skin tones do
    /// not matter, and emoji and ideographs are found one by one (a run of them as a phrase).
    public func search(
        _ text: String, in roomID: String? = nil, cursor: String? = nil, limit: Int = 20
    ) async throws(ParleyError) -> SearchPage {
        var query = [("q", text), ("limit", String(limit))]
        if let cursor { query.append(("cursor", cursor)) }
        let path = roomID.map { ChatAPI.path("rooms", $0, "search") } ?? "/v1/search"
        return try SearchPage(json: try await api.json("GET", path, query: query))
    }
}
