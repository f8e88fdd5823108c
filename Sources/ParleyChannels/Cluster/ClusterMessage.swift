/// One message on the cluster bus, from one node to every other.
///
/// Encoded by `ClusterEnvelope`; the frames inside `events` are the Pusher JSON each
/// subscriber receives, so a receiving node encodes each WebSocket frame once for all of its
/// subscribers and never re-serializes the event.
public enum ClusterMessage: Sendable, Equatable {
    /// Events published on the sending node, in publish order.
    case events(app: String, [ClusterEvent])
    /// A change to (or, when `full`, the whole of) the sending node's share of the shared
    /// state: its subscription counts and presence members.
    case share(ClusterShareUpdate)
    /// Close every connection signed in as the user (`terminate_connections`).
    case terminate(app: String, user: String)
    /// An application notice (chat cache invalidation), handed to whoever registered `topic`.
    case notice(topic: String, payload: [UInt8])
}

/// An event as it crosses the bus.
public struct ClusterEvent: Sendable, Equatable {
    /// The channel.
    public var channel: String
    /// The event name.
    public var event: String
    /// The Pusher frame subscribers receive.
    public var frame: [UInt8]
    /// A socket that must not receive it (the sender), wherever it is connected.
    public var excluding: String?
    /// The data as JSON text, carried only for cache channels (the receiving node remembers it).
    public var cacheData: [UInt8]?

    /// Creates an event.
    public init(channel: String, event: String, frame: [UInt8], excluding: String?, cacheData: [UInt8]?) {
        self.channel = channel
        self.event = event
        self.frame = frame
        self.excluding = excluding
        self.cacheData = cacheData
    }
}

/// A numbered change to one node's share. `seq` grows by one per change from the node's
/// start (`boot`), so a receiver notices a gap and a snapshot older than what it applied.
public struct ClusterShareUpdate: Sendable, Equatable {
    /// The change's number.
    public var seq: UInt64
    /// Whether `changes` is the node's whole share (a snapshot) rather than a delta.
    public var full: Bool
    /// What changed.
    public var changes: [ClusterShareChange]

    /// Creates an update.
    public init(seq: UInt64, full: Bool, changes: [ClusterShareChange]) {
        self.seq = seq
        self.full = full
        self.changes = changes
    }
}

/// One entry of a node's share.
public enum ClusterShareChange: Sendable, Equatable {
    /// The node's subscriptions to a channel (0: none left).
    case count(app: String, channel: String, Int)
    /// A presence member with a connection on the node (`info` as JSON text), or nil when
    /// the user's last connection there left.
    case member(app: String, channel: String, user: String, info: [UInt8]?)
    /// The node's open connections of an app (for the cluster-wide connection limit).
    case connections(app: String, Int)
}

/// A message with its sender: the node id and the sender's start (a random number, so the
/// receivers can tell a restarted node with the same id from the old one).
public struct ClusterEnvelope: Sendable, Equatable {
    /// The sending node.
    public var node: String
    /// The sender's start.
    public var boot: UInt64
    /// The message.
    public var message: ClusterMessage

    /// Creates an envelope.
    public init(node: String, boot: UInt64, message: ClusterMessage) {
        self.node = node
        self.boot = boot
        self.message = message
    }
}
