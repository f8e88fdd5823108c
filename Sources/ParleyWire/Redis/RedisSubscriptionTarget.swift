/// What a subscriber listens to: one channel by name, or every channel matching a glob pattern.
public enum RedisSubscriptionTarget: Sendable, Hashable, Comparable {
    /// `SUBSCRIBE name`.
    case channel([UInt8])
    /// `PSUBSCRIBE pattern`.
    case pattern([UInt8])

    /// The channel name or pattern.
    public var name: [UInt8] {
        switch self {
        case .channel(let name), .pattern(let name): name
        }
    }

    /// Channels before patterns, then byte order, so commands come out in a stable order.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.channel, .pattern): true
        case (.pattern, .channel): false
        default: lhs.name.lexicographicallyPrecedes(rhs.name)
        }
    }
}
