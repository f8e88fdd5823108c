/// A user of one app.
public struct ChatUser: Sendable, Hashable {
    /// The id the app chose (a token's `sub`); unique within the app.
    public var id: String
    /// The display name.
    public var name: String
    /// Where the user's avatar image is.
    public var avatarURL: String?
    /// The app's own JSON for the user, stored byte for byte (at most `StoreLimits.customDataBytes`).
    public var customData: String?
    /// When the user was created (milliseconds since the Unix epoch).
    public var createdAt: Int64
    /// When the user was last changed.
    public var updatedAt: Int64

    /// Creates a user value.
    public init(id: String, name: String, avatarURL: String? = nil, customData: String? = nil, createdAt: Int64, updatedAt: Int64) {
        self.id = id
        self.name = name
        self.avatarURL = avatarURL
        self.customData = customData
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
