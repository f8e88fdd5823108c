import ParleyWireCore

/// Whether a user is online, and when they were last seen.
public struct PresenceStatus: Sendable, Hashable {
    /// The user.
    public var userID: String
    /// Whether a connection of theirs is signed in now.
    public var isOnline: Bool
    /// When they were last seen, milliseconds since the Unix epoch.
    public var lastSeenAt: Int64?

    /// Creates a presence value.
    public init(userID: String, isOnline: Bool, lastSeenAt: Int64? = nil) {
        self.userID = userID
        self.isOnline = isOnline
        self.lastSeenAt = lastSeenAt
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "presence")
        self.init(
            userID: try r.string("user_id"), isOnline: try r.optionalBool("online") ?? false,
            lastSeenAt: try r.int64IfPresent("last_seen_at"))
    }

    /// The API's form.
    public var json: JSONValue {
        .object(["user_id": .string(userID), "online": .bool(isOnline), "last_seen_at": .optional(lastSeenAt)])
    }
}
