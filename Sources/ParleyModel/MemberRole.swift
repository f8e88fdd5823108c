/// A member's rights in a room.
public enum MemberRole: String, Sendable, Hashable, CaseIterable {
    /// Manages the room and its members.
    case admin
    /// Reads and writes.
    case member
}
