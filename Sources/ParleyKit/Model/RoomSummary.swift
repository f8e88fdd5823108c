import ParleyWireCore

/// One of the signed-in user's rooms with their role, read position and unread count.
public struct RoomSummary: Sendable, Equatable, Identifiable {
    /// The room.
    public var room: ChatRoom
    /// The user's role in it.
    public var role: MemberRole
    /// The seq up to which the user has read.
    public var readSeq: Int64
    /// Messages after the read position (by others).
    public var unreadCount: Int
    /// The latest message, if any.
    public var lastMessage: ChatMessage?

    /// The room's id.
    public var id: String { room.id }

    /// Creates a summary.
    public init(room: ChatRoom, role: MemberRole = .member, readSeq: Int64 = 0, unreadCount: Int = 0, lastMessage: ChatMessage? = nil) {
        self.room = room
        self.role = role
        self.readSeq = readSeq
        self.unreadCount = unreadCount
        self.lastMessage = lastMessage
    }

    init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "room summary")
        let last = r.value("last_message")
        self.init(room: try ChatRoom(json: r.value("room")), role: MemberRole(rawValue: r.optionalString("role") ?? "") ?? .member,
                  readSeq: r.optionalInt64("read_seq") ?? 0, unreadCount: Int(r.optionalInt64("unread_count") ?? 0),
                  lastMessage: last == nil || last == .null ? nil : try ChatMessage(json: last))
    }

    package var json: JSONValue {
        .object(["room": room.json, "role": .string(role.rawValue), "read_seq": .number(String(readSeq)),
                 "unread_count": .int(unreadCount), "last_message": lastMessage?.json ?? .null])
    }
}
