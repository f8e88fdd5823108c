import Synchronization

/// Token buckets by key (an app, a user and the kind of write, say), safe from any thread.
///
/// Each call names its rate, so one limiter serves apps configured differently. Buckets of
/// idle keys are forgotten once more than `pruneThreshold` keys are tracked, so memory stays
/// bounded by the number of users active within one bucket's refill time.
public final class RateLimiter: Sendable {
    private struct Entry {
        var bucket: TokenBucket
        var limit: RateLimit
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let pruneThreshold: Int

    /// Creates an empty limiter.
    public init(pruneThreshold: Int = 10_000) {
        self.pruneThreshold = pruneThreshold
    }

    /// Takes a token of `key`'s bucket at `now` (milliseconds); when none is left, the whole
    /// seconds until one is due (the `Retry-After`). An unlimited rate always admits.
    public func admit(_ key: String, limit: RateLimit, now: Int64) -> Int? {
        guard !limit.isUnlimited else { return nil }
        return entries.withLock { entries -> Int? in
            var entry = entries[key] ?? Entry(bucket: TokenBucket(limit, now: now), limit: limit)
            entry.limit = limit
            let wait = entry.bucket.take(limit, now: now)
            entries[key] = entry
            if entries.count > pruneThreshold {
                entries = entries.filter { _, entry in !entry.bucket.isFull(entry.limit, at: now) }
            }
            return wait
        }
    }

    /// How many keys have a bucket (for tests and metrics).
    public var trackedKeys: Int { entries.withLock { $0.count } }
}
