/// One entry of a user's room list.
public struct RoomSummary: Sendable, Hashable {
    /// The room (with its member count and last activity time).
    public var room: Room
    /// The user's role in it.
    public var role: MemberRole
    /// The user's read cursor.
    public var readSeq: Int64
    /// Messages after the cursor that others sent and that are not deleted.
    public var unreadCount: Int
    /// The newest message (possibly a tombstone), for the preview; nil in a room without messages.
    public var lastMessage: Message?

    /// Creates a value.
    public init(room: Room, role: MemberRole, readSeq: Int64, unreadCount: Int, lastMessage: Message?) {
        self.room = room
        self.role = role
        self.readSeq = readSeq
        self.unreadCount = unreadCount
        self.lastMessage = lastMessage
    }
}
