import ParleyWireCore

/// A user's membership of a room, with the user's read cursor.
public struct Membership: Sendable, Hashable {
    /// The room.
    public var roomID: String
    /// The member.
    public var userID: String
    /// Admin or member.
    public var role: MemberRole
    /// When the user became a member, milliseconds since the Unix epoch.
    public var joinedAt: Int64
    /// The highest seq the user has read (the read cursor).
    public var readSeq: Int64
    /// When the cursor last moved, if it ever did.
    public var readAt: Int64?

    /// Creates a membership value.
    public init(roomID: String, userID: String, role: MemberRole, joinedAt: Int64 = 0, readSeq: Int64, readAt: Int64? = nil) {
        self.roomID = roomID
        self.userID = userID
        self.role = role
        self.joinedAt = joinedAt
        self.readSeq = readSeq
        self.readAt = readAt
    }

    /// Reads the API's form; an unknown role is an error.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "membership")
        let roleText = try r.stringIfPresent("role") ?? MemberRole.member.rawValue
        guard let role = MemberRole(rawValue: roleText) else { throw ParleyError(.decoding, "membership: unknown role \(roleText)") }
        self.init(
            roomID: try r.string("room_id"), userID: try r.string("user_id"), role: role,
            joinedAt: try r.int64IfPresent("joined_at") ?? 0, readSeq: try r.int64IfPresent("read_seq") ?? 0,
            readAt: try r.int64IfPresent("read_at"))
    }

    /// The API's form.
    public var json: JSONValue {
        .object([
            "room_id": .string(roomID), "user_id": .string(userID), "role": .string(role.rawValue),
            "joined_at": .int64(joinedAt), "read_seq": .int64(readSeq), "read_at": .optional(readAt)
        ])
    }
}
