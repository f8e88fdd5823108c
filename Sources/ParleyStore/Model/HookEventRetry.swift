/// A failed outbox row's next attempt.
public struct HookEventRetry: Sendable, Equatable {
    /// The row's id.
    public var id: Int64
    /// Failed attempts so far, this one included.
    public var attempts: Int
    /// When the first attempt was made (ms since the epoch).
    public var firstAttemptAt: Int64
    /// When it is due again (ms since the epoch).
    public var nextAttemptAt: Int64

    /// Creates a retry.
    public init(id: Int64, attempts: Int, firstAttemptAt: Int64, nextAttemptAt: Int64) {
        self.id = id
        self.attempts = attempts
        self.firstAttemptAt = firstAttemptAt
        self.nextAttemptAt = nextAttemptAt
    }
}
