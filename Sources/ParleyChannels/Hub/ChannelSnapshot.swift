import ParleyWire

/// What the HTTP API can learn about one channel.
public struct ChannelSnapshot: Sendable, Equatable {
    /// Whether it has subscribers.
    public var occupied: Bool
    /// Connections subscribed.
    public var subscriptionCount: Int
    /// Distinct presence users (presence channels).
    public var userCount: Int?
    /// The cached last event (cache channels): data and seconds left to live.
    public var cache: (data: JSONValue, ttl: Int)?

    /// Creates a snapshot.
    public init(occupied: Bool, subscriptionCount: Int, userCount: Int? = nil, cache: (data: JSONValue, ttl: Int)? = nil) {
        self.occupied = occupied
        self.subscriptionCount = subscriptionCount
        self.userCount = userCount
        self.cache = cache
    }

    public static func == (a: ChannelSnapshot, b: ChannelSnapshot) -> Bool {
        a.occupied == b.occupied && a.subscriptionCount == b.subscriptionCount && a.userCount == b.userCount
            && a.cache?.data == b.cache?.data && a.cache?.ttl == b.cache?.ttl
    }
}
