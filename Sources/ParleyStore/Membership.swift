/// A user's membership of a room, with the user's read cursor.
public struct Membership: Sendable, Hashable {
    /// The room.
    public var roomID: String
    /// The member.
    public var userID: String
    /// Admin or member.
    public var role: MemberRole
    /// When the user became a member.
    public var joinedAt: Int64
    /// The highest seq the user has read (the read cursor).
    public var readSeq: Int64
    /// When the cursor last moved, if it ever did.
    public var readAt: Int64?

    /// Creates a membership value.
    public init(roomID: String, userID: String, role: MemberRole, joinedAt: Int64, readSeq: Int64, readAt: Int64?) {
        self.roomID = roomID
        self.userID = userID
        self.role = role
        self.joinedAt = joinedAt
        self.readSeq = readSeq
        self.readAt = readAt
    }
}
