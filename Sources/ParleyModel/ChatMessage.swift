import ParleyWireCore

/// A message as the server stored it, with its place (`seq`) in the room; a deleted message
/// stays as a tombstone that keeps its seq.
public struct ChatMessage: Sendable, Hashable, Identifiable {
    /// The server's id, unique within the database.
    public var id: Int64
    /// The room.
    public var roomID: String
    /// The position in the room: 1, 2, 3… without gaps.
    public var seq: Int64
    /// The author.
    public var senderID: String
    /// The id the sending client chose (idempotency key), if any.
    public var clientID: String?
    /// The content; empty once deleted.
    public var parts: [MessagePart]
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// Last edit time.
    public var editedAt: Int64?
    /// Deletion time; set means this is a tombstone.
    public var deletedAt: Int64?
    /// Reactions, one entry per emoji, by emoji.
    public var reactions: [ReactionCount]
    /// The thread this message replies to (always a thread's root message), or nil.
    public var parentID: Int64?
    /// Whether the message appears in the room's history: false for a thread reply sent to the
    /// thread only; always true for messages that are not replies.
    public var showInRoom: Bool
    /// How many replies the message's thread has (0 for a reply itself).
    public var replyCount: Int
    /// The users who replied last in the thread, newest first, at most three.
    public var lastReplierIDs: [String]
    /// The message this one quotes, as it was when this one was sent.
    public var quoted: QuotedMessage?
    /// The room members the text mentions (`@id`), resolved when the message was sent.
    public var mentions: [String]

    /// Whether it was deleted (a tombstone keeps its seq). Setting it without a deletion time
    /// records time 0; clearing it clears the time.
    public var isDeleted: Bool {
        get { deletedAt != nil }
        set { deletedAt = newValue ? (deletedAt ?? 0) : nil }
    }

    /// Creates a message value.
    public init(
        id: Int64, roomID: String, seq: Int64, senderID: String, clientID: String? = nil, parts: [MessagePart],
        createdAt: Int64, editedAt: Int64? = nil, deletedAt: Int64? = nil, isDeleted: Bool = false, reactions: [ReactionCount] = [],
        parentID: Int64? = nil, showInRoom: Bool = true, replyCount: Int = 0, lastReplierIDs: [String] = [],
        quoted: QuotedMessage? = nil, mentions: [String] = []
    ) {
        self.id = id
        self.roomID = roomID
        self.seq = seq
        self.senderID = senderID
        self.clientID = clientID
        self.parts = parts
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.deletedAt = deletedAt ?? (isDeleted ? 0 : nil)
        self.reactions = reactions
        self.parentID = parentID
        self.showInRoom = showInRoom
        self.replyCount = replyCount
        self.lastReplierIDs = lastReplierIDs
        self.quoted = quoted
        self.mentions = mentions
    }

    /// The text parts joined by newlines.
    public var text: String { parts.compactMap(\.text).joined(separator: "\n") }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "message")
        self.init(
            id: try r.int64("id"), roomID: try r.string("room_id"), seq: try r.int64("seq"), senderID: try r.string("sender_id"),
            clientID: try r.stringIfPresent("client_id"), parts: try MessagePart.list(try r.array("parts")),
            createdAt: try r.int64("created_at"), editedAt: try r.int64IfPresent("edited_at"),
            deletedAt: try r.int64IfPresent("deleted_at"), isDeleted: try r.optionalBool("deleted") ?? false,
            reactions: try ReactionCount.list(try r.arrayIfPresent("reactions")),
            parentID: try r.int64IfPresent("parent_id"), showInRoom: try r.optionalBool("show_in_room") ?? true,
            replyCount: Int(try r.int64IfPresent("reply_count") ?? 0), lastReplierIDs: try Self.strings(r, "last_replier_ids"),
            quoted: try Self.quote(r.value("quoted_message")), mentions: try Self.strings(r, "mentions"))
    }

    private static func strings(_ r: JSONReader, _ key: String) throws(ParleyError) -> [String] {
        var strings: [String] = []
        for value in try r.arrayIfPresent(key) {
            guard let string = value.stringValue else { throw ParleyError(.decoding, "message: \(key) holds a non-string") }
            strings.append(string)
        }
        return strings
    }

    private static func quote(_ value: JSONValue?) throws(ParleyError) -> QuotedMessage? {
        guard let value, value != .null else { return nil }
        return try QuotedMessage(json: value)
    }

    /// The API's form (``writeJSON(into:)`` writes the same bytes without building it).
    public var json: JSONValue {
        .object([
            "id": .int64(id), "room_id": .string(roomID), "seq": .int64(seq), "sender_id": .string(senderID),
            "client_id": .optional(clientID), "parts": .array(parts.map(\.json)), "created_at": .int64(createdAt),
            "edited_at": .optional(editedAt), "deleted_at": .optional(deletedAt), "deleted": .bool(isDeleted),
            "reactions": ReactionCount.json(reactions), "parent_id": .optional(parentID), "show_in_room": .bool(showInRoom),
            "reply_count": .int(replyCount), "last_replier_ids": .array(lastReplierIDs.map { .string($0) }),
            "quoted_message": quoted?.json ?? .null, "mentions": .array(mentions.map { .string($0) })
        ])
    }
}
