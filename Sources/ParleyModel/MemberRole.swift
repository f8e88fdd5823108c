/// A member's rights in a room, highest first; docs/moderation.md tabulates what each may do.
public enum MemberRole: String, Sendable, Hashable, CaseIterable {
    /// Everything an admin may do, and the only role that may grant or take away owner and act on other owners.
    case owner
    /// Manages the room and its members.
    case admin
    /// Keeps the room civil: deletes messages, mutes, kicks and bans members, sets slow mode.
    case moderator
    /// Reads and writes.
    case member

    /// The role's rank: a higher rank may act on a lower one.
    public var rank: Int {
        switch self {
        case .owner: 3
        case .admin: 2
        case .moderator: 1
        case .member: 0
        }
    }

    /// Whether the role manages the room (owner or admin): rooms with members keep at least one.
    public var managesRoom: Bool { rank >= MemberRole.admin.rank }
}
