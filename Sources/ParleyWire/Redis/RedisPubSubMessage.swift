/// One message a subscriber connection received: `message` (a channel subscription) or
/// `pmessage` (a pattern subscription, with the pattern that matched).
public struct RedisPubSubMessage: Sendable, Equatable {
    /// The channel it was published to.
    public var channel: [UInt8]
    /// The pattern subscription it arrived through, for `pmessage`.
    public var pattern: [UInt8]?
    /// The published bytes.
    public var payload: [UInt8]

    /// Creates a message.
    public init(channel: [UInt8], pattern: [UInt8]? = nil, payload: [UInt8]) {
        self.channel = channel
        self.pattern = pattern
        self.payload = payload
    }

    /// The subscription that delivered it.
    public var target: RedisSubscriptionTarget {
        pattern.map { .pattern($0) } ?? .channel(channel)
    }
}
