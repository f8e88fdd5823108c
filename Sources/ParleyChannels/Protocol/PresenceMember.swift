import ParleyWire

/// A presence channel member as signed in `channel_data`: user id and user info.
public struct PresenceMember: Sendable, Equatable {
    /// The user id (numbers in `channel_data` are turned into their digits).
    public var userID: String
    /// The user info (any JSON value; null when absent).
    public var userInfo: JSONValue

    /// Creates a member.
    public init(userID: String, userInfo: JSONValue = .null) {
        self.userID = userID
        self.userInfo = userInfo
    }
}
