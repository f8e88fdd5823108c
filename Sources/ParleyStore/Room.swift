/// A room of one app: a public or private group, or a direct conversation between two users.
public struct Room: Sendable, Hashable {
    /// The room's id, unique within the app.
    public var id: String
    /// Public, private or direct.
    public var kind: RoomKind
    /// The display name (direct rooms usually have none).
    public var name: String?
    /// The app's JSON for the room.
    public var customData: String?
    /// The user who created the room, if one did.
    public var createdBy: String?
    /// For a direct room, its two users in ascending order; empty otherwise.
    public var directUserIDs: [String]
    /// The seq of the room's newest message (0 before the first).
    public var lastSeq: Int64
    /// When the room last had a new message (its creation time before that).
    public var lastActivityAt: Int64
    /// How many members the room has.
    public var memberCount: Int
    /// When the room was created.
    public var createdAt: Int64
    /// When the room's name, kind or custom data last changed.
    public var updatedAt: Int64

    /// Creates a room value.
    public init(id: String, kind: RoomKind, name: String?, customData: String?, createdBy: String?,
                directUserIDs: [String], lastSeq: Int64, lastActivityAt: Int64, memberCount: Int,
                createdAt: Int64, updatedAt: Int64) {
        self.id = id
        self.kind = kind
        self.name = name
        self.customData = customData
        self.createdBy = createdBy
        self.directUserIDs = directUserIDs
        self.lastSeq = lastSeq
        self.lastActivityAt = lastActivityAt
        self.memberCount = memberCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
