/// The outcome of sending a message.
public struct AppendResult: Sendable, Hashable {
    /// The stored message: new, or the original one of an earlier send with the same client id.
    public var message: Message
    /// False when this was a retry and no new message was stored.
    public var created: Bool
    /// For a new reply: its thread root's counters after it.
    public var thread: ThreadUpdate?

    /// Creates a value.
    public init(message: Message, created: Bool, thread: ThreadUpdate? = nil) {
        self.message = message
        self.created = created
        self.thread = thread
    }
}
