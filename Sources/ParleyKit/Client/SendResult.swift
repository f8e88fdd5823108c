/// How a ``ParleyClient/send(_:to:)`` ended: the server has the message, or it could not be
/// reached and the message waits in the outbox. A refusal throws instead.
public enum SendResult: Sendable, Equatable {
    /// The server stored the message.
    case delivered(ChatMessage)
    /// The server could not be reached: the message waits in the outbox (on disk when the
    /// client has a store path) and is delivered exactly once when it can be, under the same
    /// client id; watch ``RoomEvent/outbox(_:)`` and ``RoomEvent/message(_:)`` for it.
    case queued(PendingMessage)

    /// The client-chosen id naming the message, in both cases.
    public var clientID: String {
        switch self {
        case .delivered(let message): message.clientID ?? ""
        case .queued(let entry): entry.clientID
        }
    }

    /// The server's message, when it has it.
    public var message: ChatMessage? {
        if case .delivered(let message) = self { return message }
        return nil
    }

    /// Whether it waits in the outbox.
    public var isQueued: Bool { message == nil }
}
