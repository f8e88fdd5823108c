/// One recorded moderation action in a room.
public struct AuditEntry: Sendable, Hashable {
    /// Increasing with time across the app; pages go by it.
    public var id: Int64
    /// The room.
    public var roomID: String
    /// What was done and by whom to whom.
    public var record: NewAuditEntry
    /// When (milliseconds since the epoch).
    public var createdAt: Int64

    /// Creates a value.
    public init(id: Int64, roomID: String, record: NewAuditEntry, createdAt: Int64) {
        self.id = id
        self.roomID = roomID
        self.record = record
        self.createdAt = createdAt
    }
}
