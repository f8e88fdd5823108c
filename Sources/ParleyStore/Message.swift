/// A message in a room; a deleted message stays as a tombstone that keeps its seq.
public struct Message: Sendable, Hashable {
    /// The message's id, unique within the database.
    public var id: Int64
    /// The room.
    public var roomID: String
    /// The room's sequence number of this message: 1, 2, 3… without gaps.
    public var seq: Int64
    /// The author.
    public var senderID: String
    /// The id the sender's client chose to make retries idempotent, if any.
    public var clientID: String?
    /// The content (empty for a tombstone).
    public var parts: [MessagePart]
    /// When it was sent.
    public var createdAt: Int64
    /// When it was last edited.
    public var editedAt: Int64?
    /// When it was deleted; set means this is a tombstone.
    public var deletedAt: Int64?
    /// Reaction counts, one entry per emoji, by emoji.
    public var reactions: [ReactionCount]

    /// Whether the message was deleted.
    public var isDeleted: Bool { deletedAt != nil }

    /// Creates a message value.
    public init(id: Int64, roomID: String, seq: Int64, senderID: String, clientID: String?, parts: [MessagePart],
                createdAt: Int64, editedAt: Int64?, deletedAt: Int64?, reactions: [ReactionCount] = []) {
        self.id = id
        self.roomID = roomID
        self.seq = seq
        self.senderID = senderID
        self.clientID = clientID
        self.parts = parts
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.deletedAt = deletedAt
        self.reactions = reactions
    }
}
