/// What it takes to create a user.
public struct NewUser: Sendable, Hashable {
    /// The id, unique within the app.
    public var id: String
    /// The display name.
    public var name: String
    /// Where the avatar image is.
    public var avatarURL: String?
    /// The app's JSON for the user.
    public var customData: String?

    /// Describes a user to create.
    public init(id: String, name: String, avatarURL: String? = nil, customData: String? = nil) {
        self.id = id
        self.name = name
        self.avatarURL = avatarURL
        self.customData = customData
    }
}
