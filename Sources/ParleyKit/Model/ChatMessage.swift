import ParleyWireCore

/// A message as the server stored it, with its place (`seq`) in the room.
public struct ChatMessage: Sendable, Equatable, Identifiable {
    /// The server's id.
    public var id: Int64
    /// The room.
    public var roomID: String
    /// The position in the room: 1, 2, 3… without gaps.
    public var seq: Int64
    /// The author.
    public var senderID: String
    /// The id the sending client chose (idempotency key).
    public var clientID: String?
    /// The content; empty once deleted.
    public var parts: [MessagePart]
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// Last edit time.
    public var editedAt: Int64?
    /// Deletion time.
    public var deletedAt: Int64?
    /// Whether it was deleted (a tombstone keeps its seq).
    public var isDeleted: Bool
    /// Reactions by emoji.
    public var reactions: [ReactionCount]

    /// Creates a message value.
    public init(id: Int64, roomID: String, seq: Int64, senderID: String, clientID: String? = nil, parts: [MessagePart],
                createdAt: Int64, editedAt: Int64? = nil, deletedAt: Int64? = nil, isDeleted: Bool = false, reactions: [ReactionCount] = []) {
        self.id = id
        self.roomID = roomID
        self.seq = seq
        self.senderID = senderID
        self.clientID = clientID
        self.parts = parts
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.deletedAt = deletedAt
        self.isDeleted = isDeleted
        self.reactions = reactions
    }

    /// The text parts joined by newlines.
    public var text: String { parts.compactMap(\.text).joined(separator: "\n") }

    init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "message")
        self.init(id: try r.int64("id"), roomID: try r.string("room_id"), seq: try r.int64("seq"), senderID: try r.string("sender_id"),
                  clientID: r.optionalString("client_id"), parts: try MessagePart.list(try r.array("parts")),
                  createdAt: try r.int64("created_at"), editedAt: r.optionalInt64("edited_at"), deletedAt: r.optionalInt64("deleted_at"),
                  isDeleted: try r.optionalBool("deleted") ?? false, reactions: ReactionCount.list(r.value("reactions")))
    }

    package var json: JSONValue {
        .object(["id": .number(String(id)), "room_id": .string(roomID), "seq": .number(String(seq)), "sender_id": .string(senderID),
                 "client_id": clientID.map(JSONValue.string) ?? .null, "parts": .array(parts.map(\.json)),
                 "created_at": .number(String(createdAt)), "edited_at": editedAt.map { .number(String($0)) } ?? .null,
                 "deleted_at": deletedAt.map { .number(String($0)) } ?? .null, "deleted": .bool(isDeleted),
                 "reactions": ReactionCount.json(reactions)])
    }
}
