/// What it takes to send a message.
public struct NewMessage: Sendable, Hashable {
    /// The author; must be a member of the room.
    public var senderID: String
    /// The client's id for this send: a retry with the same id returns the original message.
    public var clientID: String?
    /// The content: 1 to `StoreLimits.partsPerMessage` parts.
    public var parts: [MessagePart]

    /// Describes a message to send.
    public init(senderID: String, clientID: String? = nil, parts: [MessagePart]) {
        self.senderID = senderID
        self.clientID = clientID
        self.parts = parts
    }
}
