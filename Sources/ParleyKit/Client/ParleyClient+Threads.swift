import ParleyWireCore

/// Threads and quotes: replying in a thread, paging it, quoting a message. Mentions need no
/// call of their own: write `@userID` in the text (see ``MentionSyntax``) and the server fills
/// in ``ChatMessage/mentions``.
extension ParleyClient {
    /// Sends a reply in the thread of `parentID` (a reply's id joins its root's thread) straight
    /// to the server (not through the outbox); `alsoInRoom` shows it in the room's history too.
    /// `quotedID` quotes a message of the room.
    @discardableResult
    public func reply(
        _ parts: [MessagePart], to parentID: Int64?, in roomID: String, alsoInRoom: Bool = false, quoting quotedID: Int64? = nil
    ) async throws(ParleyError) -> ChatMessage {
        var body: JSONObject = ["parts": .array(parts.map(\.json))]
        if let parentID {
            body["parent_id"] = .int64(parentID)
            body["show_in_room"] = .bool(alsoInRoom)
        }
        if let quotedID { body["quoted_message_id"] = .int64(quotedID) }
        return try ChatMessage(json: try await api.json("POST", ChatAPI.path("rooms", roomID, "messages"), json: .object(body)))
    }

    /// A page of a thread's replies, ascending, paged like ``history(_:before:after:limit:)``.
    public func replies(
        to parentID: Int64, in roomID: String, before: Int64? = nil, after: Int64? = nil, limit: Int = 50
    ) async throws(ParleyError) -> MessagePage {
        var query = [("limit", String(limit))]
        if let before { query.append(("before", String(before))) }
        if let after { query.append(("after", String(after))) }
        let path = ChatAPI.path("rooms", roomID, "messages", String(parentID), "replies")
        return try MessagePage(json: try await api.json("GET", path, query: query))
    }
}
