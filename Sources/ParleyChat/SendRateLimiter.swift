import Synchronization

/// Per-key token buckets (message sends per user, typing per user and room): `rate` per second sustained, `burst` at once.
final class SendRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Int64
    }

    private let rate: Double
    private let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Above this many tracked users, full (idle) buckets are forgotten.
    private let pruneThreshold = 10_000

    /// A limiter; a rate of 0 admits everything.
    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(burst, 1)
    }

    /// Takes a token for `key` at `now` (milliseconds); otherwise the seconds until one is due.
    func admit(_ key: String, now: Int64) -> Int? {
        guard rate > 0 else { return nil }
        return buckets.withLock { buckets -> Int? in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updatedAt: now)
            let elapsed = Double(max(0, now - bucket.updatedAt)) / 1000
            bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
            bucket.updatedAt = now
            defer {
                buckets[key] = bucket
                if buckets.count > pruneThreshold { prune(&buckets, now: now) }
            }
            guard bucket.tokens >= 1 else {
                return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
            }
            bucket.tokens -= 1
            return nil
        }
    }

    private func prune(_ buckets: inout [String: Bucket], now: Int64) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + Double(max(0, now - bucket.updatedAt)) / 1000 * rate < burst
        }
    }
}
