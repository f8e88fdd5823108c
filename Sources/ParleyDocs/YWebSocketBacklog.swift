/// The messages a y-websocket connection has read but its session has not handled yet, with
/// the decisions that keep them bounded: pause reading the socket above the soft bounds,
/// resume once the session has worked the backlog down to half of them, and give up on a
/// peer whose backlog passes the hard bound anyway (one read of deflated frames can inflate
/// to far more than the soft bound). A value without I/O; the connection acts on its answers.
public struct YWebSocketBacklog<Element: Sendable>: Sendable {
    /// The bounds, in messages and in bytes.
    public struct Limits: Sendable, Hashable {
        /// Pause reading once this many messages wait…
        public var pauseMessages: Int
        /// …or this many bytes.
        public var pauseBytes: Int
        /// Close the connection once this many bytes wait (reading is paused by then; only a
        /// read already under way can carry the backlog here).
        public var closeBytes: Int

        /// Creates bounds.
        public init(pauseMessages: Int = 64, pauseBytes: Int = 4 << 20, closeBytes: Int = 32 << 20) {
            self.pauseMessages = max(pauseMessages, 1)
            self.pauseBytes = max(pauseBytes, 1)
            self.closeBytes = max(closeBytes, self.pauseBytes)
        }
    }

    /// What the connection must do after a message was added.
    public enum Pressure: Sendable, Hashable {
        /// Nothing.
        case none
        /// Stop reading the socket.
        case pause
        /// Close the connection: the backlog passed the hard bound (it was emptied).
        case overflow
    }

    /// The bounds in force.
    public let limits: Limits
    /// The messages waiting, oldest first (from `head` on).
    private var items: [(element: Element, bytes: Int)] = []
    private var head = 0
    /// The bytes waiting.
    public private(set) var bytes = 0
    /// Whether the socket is paused on this backlog's advice.
    public private(set) var isPaused = false

    /// An empty backlog.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How many messages wait.
    public var count: Int { items.count - head }

    /// Adds a message of `size` bytes.
    public mutating func append(_ element: Element, bytes size: Int) -> Pressure {
        items.append((element, size))
        bytes += size
        if bytes > limits.closeBytes {
            removeAll()
            return .overflow
        }
        guard !isPaused, count >= limits.pauseMessages || bytes >= limits.pauseBytes else { return .none }
        isPaused = true
        return .pause
    }

    /// Takes the oldest message; `resume` says the socket should be read again.
    public mutating func next() -> (element: Element, resume: Bool)? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        bytes -= item.bytes
        if head == items.count {
            // Emptied: drop the storage so a burst's capacity does not stay allocated.
            items = []
            head = 0
        } else if head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        let resume = isPaused && count <= limits.pauseMessages / 2 && bytes <= limits.pauseBytes / 2
        if resume { isPaused = false }
        return (item.element, resume)
    }

    /// Drops every waiting message (the connection is closing).
    public mutating func removeAll() {
        items = []
        head = 0
        bytes = 0
    }
}
