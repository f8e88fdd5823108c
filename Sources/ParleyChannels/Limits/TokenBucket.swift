/// One token bucket as a value: refilled from the time passed in, so tests drive the clock.
public struct TokenBucket: Sendable, Hashable {
    /// Tokens available after the last update.
    public private(set) var tokens: Double
    /// When the bucket was last updated, in milliseconds.
    public private(set) var updatedAt: Int64

    /// A full bucket for `limit` at `now` (milliseconds).
    public init(_ limit: RateLimit, now: Int64) {
        tokens = limit.burst
        updatedAt = now
    }

    /// Takes one token at `now`; when none is left, returns the whole seconds until one is
    /// due (at least 1, for `Retry-After`) and takes nothing.
    public mutating func take(_ limit: RateLimit, now: Int64) -> Int? {
        guard !limit.isUnlimited else { return nil }
        refill(limit, now: now)
        guard tokens >= 1 else {
            return max(1, Int(((1 - tokens) / limit.perSecond).rounded(.up)))
        }
        tokens -= 1
        return nil
    }

    /// Whether the bucket would be full again at `now` (an idle user: forgetting it loses nothing).
    public func isFull(_ limit: RateLimit, at now: Int64) -> Bool {
        tokens + Self.elapsedSeconds(from: updatedAt, to: now) * limit.perSecond >= limit.burst
    }

    private mutating func refill(_ limit: RateLimit, now: Int64) {
        tokens = min(limit.burst, tokens + Self.elapsedSeconds(from: updatedAt, to: now) * limit.perSecond)
        // A clock that steps back must not mint tokens later.
        updatedAt = max(updatedAt, now)
    }

    private static func elapsedSeconds(from start: Int64, to now: Int64) -> Double {
        Double(max(0, now - start)) / 1000
    }
}
