import ParleyWireCore

/// One entry of a user's room list: the room with the user's role, read position and unread count.
public struct RoomSummary: Sendable, Equatable, Identifiable {
    /// The room (with its member count and last activity time).
    public var room: ChatRoom
    /// The user's role in it.
    public var role: MemberRole
    /// The seq up to which the user has read.
    public var readSeq: Int64
    /// Messages after the read position that others sent and that are not deleted.
    public var unreadCount: Int
    /// Messages after the read position that mention the user (`@id`), deleted ones excluded;
    /// moving the read cursor past them clears them.
    public var unreadMentions: Int
    /// The newest message (possibly a tombstone), for the preview; nil in a room without messages.
    public var lastMessage: ChatMessage?

    /// The room's id.
    public var id: String { room.id }

    /// Creates a summary.
    public init(
        room: ChatRoom, role: MemberRole = .member, readSeq: Int64 = 0, unreadCount: Int = 0, lastMessage: ChatMessage? = nil,
        unreadMentions: Int = 0
    ) {
        self.room = room
        self.role = role
        self.readSeq = readSeq
        self.unreadCount = unreadCount
        self.lastMessage = lastMessage
        self.unreadMentions = unreadMentions
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "room summary")
        let roleText = try r.stringIfPresent("role") ?? MemberRole.member.rawValue
        guard let role = MemberRole(rawValue: roleText) else { throw ParleyError(.decoding, "room summary: unknown role \(roleText)") }
        let last = r.value("last_message")
        self.init(
            room: try ChatRoom(json: r.value("room")), role: role, readSeq: try r.int64IfPresent("read_seq") ?? 0,
            unreadCount: Int(try r.int64IfPresent("unread_count") ?? 0),
            lastMessage: last == nil || last == .null ? nil : try ChatMessage(json: last),
            unreadMentions: Int(try r.int64IfPresent("unread_mentions") ?? 0))
    }

    /// The API's form.
    public var json: JSONValue {
        .object([
            "room": room.json, "role": .string(role.rawValue), "read_seq": .int64(readSeq),
            "unread_count": .int(unreadCount), "unread_mentions": .int(unreadMentions), "last_message": lastMessage?.json ?? .null
        ])
    }
}
