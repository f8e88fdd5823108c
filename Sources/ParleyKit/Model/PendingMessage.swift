/// A message in the outbox: written to disk before it is sent, removed once the server has it.
public struct PendingMessage: Sendable, Equatable, Identifiable {
    /// Where it stands.
    public enum State: Sendable, Equatable {
        /// Waiting to be sent, or being sent.
        case pending
        /// The server refused it for good (the reason's stable code and text); retry or delete.
        case failed(code: String, message: String)
    }

    /// The client-chosen id; the server's idempotency key.
    public var clientID: String
    /// The room.
    public var roomID: String
    /// The content.
    public var parts: [MessagePart]
    /// When it was written, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// Where it stands.
    public var state: State

    /// The id for lists: the client id.
    public var id: String { clientID }

    /// Creates an entry.
    public init(clientID: String, roomID: String, parts: [MessagePart], createdAt: Int64, state: State = .pending) {
        self.clientID = clientID
        self.roomID = roomID
        self.parts = parts
        self.createdAt = createdAt
        self.state = state
    }
}
