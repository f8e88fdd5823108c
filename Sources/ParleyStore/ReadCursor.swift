/// How far a member has read a room.
public struct ReadCursor: Sendable, Hashable {
    /// The room.
    public var roomID: String
    /// The member.
    public var userID: String
    /// The highest seq the member has read.
    public var seq: Int64
    /// When the cursor last moved.
    public var readAt: Int64?

    /// Creates a value.
    public init(roomID: String, userID: String, seq: Int64, readAt: Int64?) {
        self.roomID = roomID
        self.userID = userID
        self.seq = seq
        self.readAt = readAt
    }
}
