/// A member's role in a room.
public enum MemberRole: String, Sendable {
    /// May change the room and its members.
    case admin
    /// An ordinary member.
    case member
}
