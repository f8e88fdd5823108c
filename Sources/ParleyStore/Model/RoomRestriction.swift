/// A mute or ban of one user in one room, with an optional end.
public struct RoomRestriction: Sendable, Hashable {
    /// What the restriction stops.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The user stays a member and reads, but may not send or edit.
        case mute
        /// The user is removed and may not join or be added again.
        case ban
    }

    /// The room.
    public var roomID: String
    /// The restricted user.
    public var userID: String
    /// Mute or ban.
    public var kind: Kind
    /// When it ends (milliseconds since the epoch); nil: when lifted.
    public var until: Int64?
    /// Why, as the moderator wrote it.
    public var reason: String?
    /// Who imposed it (nil: an app-level call).
    public var actorID: String?
    /// When it was imposed.
    public var createdAt: Int64

    /// Creates a value.
    public init(
        roomID: String, userID: String, kind: Kind, until: Int64?, reason: String?, actorID: String?, createdAt: Int64 = 0
    ) {
        self.roomID = roomID
        self.userID = userID
        self.kind = kind
        self.until = until
        self.reason = reason
        self.actorID = actorID
        self.createdAt = createdAt
    }

    /// Whether it still applies at `now` (milliseconds since the epoch).
    public func isActive(at now: Int64) -> Bool {
        guard let until else { return true }
        return until > now
    }
}
