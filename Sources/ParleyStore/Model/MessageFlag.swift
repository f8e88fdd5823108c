/// A member's report of a message for review, and how it was resolved.
public struct MessageFlag: Sendable, Hashable {
    /// Which flags a listing returns.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Not resolved yet.
        case open
        /// Resolved.
        case resolved
        /// Both.
        case all
    }

    /// The flag's id (app-wide).
    public var id: Int64
    /// The message's room.
    public var roomID: String
    /// The flagged message.
    public var messageID: Int64
    /// Who flagged it.
    public var flaggerID: String
    /// Why.
    public var reason: String?
    /// When it was flagged.
    public var createdAt: Int64
    /// When it was resolved, if it was.
    public var resolvedAt: Int64?
    /// Who resolved it (nil for an app-level call or while open).
    public var resolvedBy: String?
    /// The resolver's note.
    public var resolution: String?

    /// Creates a value.
    public init(
        id: Int64, roomID: String, messageID: Int64, flaggerID: String, reason: String?, createdAt: Int64,
        resolvedAt: Int64? = nil, resolvedBy: String? = nil, resolution: String? = nil
    ) {
        self.id = id
        self.roomID = roomID
        self.messageID = messageID
        self.flaggerID = flaggerID
        self.reason = reason
        self.createdAt = createdAt
        self.resolvedAt = resolvedAt
        self.resolvedBy = resolvedBy
        self.resolution = resolution
    }
}
