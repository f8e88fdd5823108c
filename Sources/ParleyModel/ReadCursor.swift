import ParleyWireCore

/// How far a member has read in a room.
public struct ReadCursor: Sendable, Hashable {
    /// The room.
    public var roomID: String
    /// The reader.
    public var userID: String
    /// The seq read up to (inclusive).
    public var seq: Int64
    /// When the cursor last moved, milliseconds since the Unix epoch.
    public var readAt: Int64?

    /// Creates a cursor value.
    public init(roomID: String, userID: String, seq: Int64, readAt: Int64? = nil) {
        self.roomID = roomID
        self.userID = userID
        self.seq = seq
        self.readAt = readAt
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "cursor")
        self.init(
            roomID: try r.string("room_id"), userID: try r.string("user_id"), seq: try r.int64("seq"),
            readAt: try r.int64IfPresent("read_at"))
    }

    /// The API's form.
    public var json: JSONValue {
        .object(["room_id": .string(roomID), "user_id": .string(userID), "seq": .int64(seq), "read_at": .optional(readAt)])
    }
}
