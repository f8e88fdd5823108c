/// What it takes to create a public or private room.
public struct NewRoom: Sendable, Hashable {
    /// The id to use; nil lets the store generate one.
    public var id: String?
    /// `.public` or `.private` (direct rooms come from `createDirectRoom`).
    public var kind: RoomKind
    /// The display name.
    public var name: String?
    /// The app's JSON for the room.
    public var customData: String?
    /// The creating user, who becomes the room's first admin; nil for rooms created by the app.
    public var creatorID: String?
    /// Further users added as members.
    public var memberIDs: [String]

    /// Describes a room to create.
    public init(
        id: String? = nil, kind: RoomKind, name: String? = nil, customData: String? = nil,
        creatorID: String? = nil, memberIDs: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.customData = customData
        self.creatorID = creatorID
        self.memberIDs = memberIDs
    }
}
