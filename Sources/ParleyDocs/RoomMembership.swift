/// Answers whether a user is a member of a room; the server implements it over the chat store.
public protocol RoomMembership: Sendable {
    /// Whether `user` is currently a member of `room` in `app` (false for an unknown room).
    func isMember(app: String, room: String, user: String) async throws -> Bool
}
