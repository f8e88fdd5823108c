/// What it takes to send a message.
public struct NewMessage: Sendable, Hashable {
    /// The author; must be a member of the room.
    public var senderID: String
    /// The client's id for this send: a retry with the same id returns the original message.
    public var clientID: String?
    /// The content: 1 to `StoreLimits.partsPerMessage` parts.
    public var parts: [MessagePart]
    /// The message this one replies to, in the same room; a reply to a reply joins the root's thread.
    public var parentID: Int64?
    /// For a reply: whether it also appears in the room's history (false: in the thread only).
    public var showInRoom: Bool
    /// A message of the same room to quote (its current parts are copied into the reply).
    public var quotedID: Int64?
    /// Slow mode for this send (nil: not paced); see ``SendPace``.
    public var pace: SendPace?

    /// Describes a message to send.
    public init(
        senderID: String, clientID: String? = nil, parts: [MessagePart], parentID: Int64? = nil, showInRoom: Bool = true,
        quotedID: Int64? = nil, pace: SendPace? = nil
    ) {
        self.senderID = senderID
        self.clientID = clientID
        self.parts = parts
        self.parentID = parentID
        self.showInRoom = showInRoom
        self.quotedID = quotedID
        self.pace = pace
    }

    /// Whether the message is stored in the room's history: everything but thread-only replies.
    var isThreadOnly: Bool { parentID != nil && !showInRoom }

    /// The `@id` candidates of the text parts, resolved against the room's members at send.
    var mentionCandidates: [String] {
        MentionSyntax.candidates(in: parts.compactMap(\.text))
    }
}
