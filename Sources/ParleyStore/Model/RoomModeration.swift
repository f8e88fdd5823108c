/// A room's moderation state: its slow mode and its mutes and bans (expired ones included;
/// `RoomRestriction.isActive(at:)` tells them apart).
public struct RoomModeration: Sendable, Hashable {
    /// Seconds a member waits between messages (0: off).
    public var slowModeSeconds: Int
    /// The room's restrictions, by user id then kind.
    public var restrictions: [RoomRestriction]
    /// A direct room's two users (empty for other rooms), for the block check of sends.
    public var directUserIDs: [String]

    /// Creates a value.
    public init(slowModeSeconds: Int = 0, restrictions: [RoomRestriction] = [], directUserIDs: [String] = []) {
        self.slowModeSeconds = slowModeSeconds
        self.restrictions = restrictions
        self.directUserIDs = directUserIDs
    }

    /// The restriction of `kind` on `user` that applies at `now`, if any.
    public func active(_ kind: RoomRestriction.Kind, user: String, at now: Int64) -> RoomRestriction? {
        restrictions.first { $0.userID == user && $0.kind == kind && $0.isActive(at: now) }
    }
}
