import ParleyWireCore

/// A user of the app.
public struct ChatUser: Sendable, Equatable, Identifiable {
    /// The user's id.
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
    public init(id: String, name: String, avatarURL: String? = nil, customData: JSONValue? = nil, createdAt: Int64 = 0, updatedAt: Int64 = 0) {
        self.id = id
        self.name = name
        self.avatarURL = avatarURL
        self.customData = customData
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "user")
        self.init(id: try r.string("id"), name: try r.string("name"), avatarURL: r.optionalString("avatar_url"),
                  customData: r.value("custom_data").flatMap { $0.isNull ? nil : $0 },
                  createdAt: r.optionalInt64("created_at") ?? 0, updatedAt: r.optionalInt64("updated_at") ?? 0)
    }

    package var json: JSONValue {
        .object(["id": .string(id), "name": .string(name), "avatar_url": avatarURL.map(JSONValue.string) ?? .null,
                 "custom_data": customData ?? .null, "created_at": .number(String(createdAt)), "updated_at": .number(String(updatedAt))])
    }
}
