import ParleyWireCore

/// A user's membership of a room.
public struct Membership: Sendable, Equatable {
    /// The room.
    public var roomID: String
    /// The member.
    public var userID: String
    /// Their role.
    public var role: MemberRole
    /// Their read position.
    public var readSeq: Int64

    /// Creates a membership value.
    public init(roomID: String, userID: String, role: MemberRole, readSeq: Int64) {
        self.roomID = roomID
        self.userID = userID
        self.role = role
        self.readSeq = readSeq
    }

    init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "membership")
        self.init(roomID: try r.string("room_id"), userID: try r.string("user_id"),
                  role: MemberRole(rawValue: r.optionalString("role") ?? "") ?? .member, readSeq: r.optionalInt64("read_seq") ?? 0)
    }

    package var json: JSONValue {
        .object(["room_id": .string(roomID), "user_id": .string(userID), "role": .string(role.rawValue),
                 "read_seq": .number(String(readSeq))])
    }
}
