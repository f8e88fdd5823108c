/// What a y-websocket connection has received for its session, and how the connection ends:
/// the bounded backlog, whether the session waits for the next message, the peer's close and
/// a revocation. A value without I/O, shared under one lock by the socket's loop (which
/// receives) and the session's task (which takes); the connection acts on its answers.
public struct YWebSocketInbox<Message: Sendable>: Sendable {
    /// What the session is given next.
    public enum Next: Sendable {
        /// A message from the peer, in arrival order.
        case message(Message)
        /// The connection ended (the peer closed, or the backlog passed its hard bound).
        case closed
        /// Access ended; whatever was queued has been dropped.
        case revoked(reason: String)
    }

    /// What the connection does with a message that just arrived.
    public enum Arrival: Sendable, Hashable {
        /// Give it to the session, which is waiting.
        case handOver
        /// Nothing: it waits in the backlog.
        case queued
        /// It waits in the backlog; stop reading the socket.
        case pause
        /// Close the connection with 1008: the backlog passed its hard bound and was dropped.
        case overflow
        /// Nothing: the connection has ended, the message is not handled.
        case dropped
    }

    /// The messages waiting, with their pause advice.
    public private(set) var backlog: YWebSocketBacklog<Message>
    /// Whether the session waits to be handed the next message.
    public private(set) var isWaiting = false
    /// Set by the peer's close or an overflow: what is queued is still handled, then `.closed`.
    public private(set) var isClosed = false
    /// Set once access ended: nothing queued or arriving later is handled.
    public private(set) var revokedReason: String?

    /// An empty inbox.
    public init(limits: YWebSocketBacklog<Message>.Limits = .init()) {
        backlog = YWebSocketBacklog(limits: limits)
    }

    /// Whether the socket should stay unread.
    public var isPaused: Bool { backlog.isPaused }

    /// A message from the socket of `bytes` bytes.
    public mutating func receive(_ message: Message, bytes: Int) -> Arrival {
        guard !isClosed, revokedReason == nil else { return .dropped }
        if isWaiting {
            isWaiting = false
            return .handOver
        }
        switch backlog.append(message, bytes: bytes) {
        case .none: return .queued
        case .pause: return .pause
        case .overflow:
            isClosed = true
            return .overflow
        }
    }

    /// The socket closed; true when the waiting session must be handed `.closed` now.
    public mutating func end() -> Bool {
        guard !isClosed, revokedReason == nil else { return false }
        isClosed = true
        return takeWaiting()
    }

    /// Access ended: drops what waits and lifts the pause, so the socket is read again and the
    /// peer's answer to the close arrives (it is dropped). `first` is false when access had
    /// already ended; `handOver` says the waiting session must be handed `.revoked` now.
    public mutating func revoke(reason: String) -> (first: Bool, handOver: Bool) {
        guard revokedReason == nil else { return (false, false) }
        revokedReason = reason
        backlog = YWebSocketBacklog(limits: backlog.limits)
        return (true, takeWaiting())
    }

    /// The session's next event and whether the socket should be read again; nil when nothing
    /// is there yet (the session now waits: the next arrival, end or revocation hands over).
    public mutating func take() -> (next: Next, resume: Bool)? {
        if let revokedReason { return (.revoked(reason: revokedReason), false) }
        if let (message, resume) = backlog.next() { return (.message(message), resume) }
        if isClosed { return (.closed, false) }
        isWaiting = true
        return nil
    }

    /// Frees whatever arrived after the session ended.
    public mutating func discard() {
        isClosed = true
        isWaiting = false
        backlog.removeAll()
    }

    private mutating func takeWaiting() -> Bool {
        defer { isWaiting = false }
        return isWaiting
    }
}
