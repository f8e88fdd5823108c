/// A message's reaction counts after a reaction was added or removed.
public struct ReactionChange: Sendable, Hashable {
    /// The message.
    public var messageID: Int64
    /// Its seq in the room.
    public var seq: Int64
    /// Every emoji's count now, by emoji.
    public var reactions: [ReactionCount]
    /// False when the reaction was already there (add) or not there (remove).
    public var changed: Bool

    /// Creates a value.
    public init(messageID: Int64, seq: Int64, reactions: [ReactionCount], changed: Bool) {
        self.messageID = messageID
        self.seq = seq
        self.reactions = reactions
        self.changed = changed
    }
}
