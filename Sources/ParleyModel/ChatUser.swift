import ParleyWireCore

/// A user of one app.
public struct ChatUser: Sendable, Equatable, Identifiable {
    /// The id the app chose (a token's `sub`); unique within the app.
    public var id: String
    /// The display name.
    public var name: String
    /// An avatar image URL.
    public var avatarURL: String?
    /// The app's own data about the user.
    public var customData: JSONValue?
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// Last update time, milliseconds since the Unix epoch.
    public var updatedAt: Int64

    /// Creates a user value.
    public init(
        id: String, name: String, avatarURL: String? = nil, customData: JSONValue? = nil, createdAt: Int64 = 0, updatedAt: Int64 = 0
    ) {
        self.id = id
        self.name = name
        self.avatarURL = avatarURL
        self.customData = customData
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "user")
        self.init(
            id: try r.string("id"), name: try r.string("name"), avatarURL: try r.stringIfPresent("avatar_url"),
            customData: r.value("custom_data").flatMap { $0.isNull ? nil : $0 },
            createdAt: try r.int64IfPresent("created_at") ?? 0, updatedAt: try r.int64IfPresent("updated_at") ?? 0)
    }

    /// The API's form.
    public var json: JSONValue {
        .object([
            "id": .string(id), "name": .string(name), "avatar_url": .optional(avatarURL),
            "custom_data": customData ?? .null, "created_at": .int64(createdAt), "updated_at": .int64(updatedAt)
        ])
    }
}
