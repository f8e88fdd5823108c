import ParleyStore

/// What becomes of outbox rows whose request failed: retried with exponential backoff
/// (`base` ms doubling, at most 60 s) until `window` ms after their first attempt, then given up.
/// The same schedule as ``ChatHookQueue``'s, per row, so a row keeps its place in the schedule
/// across batches, nodes and restarts.
struct HookRetryPolicy: Sendable {
    /// Milliseconds before the first retry.
    var base: Int64
    /// Milliseconds a failing row keeps being retried.
    var window: Int64

    /// The outcome for failed rows at `now`: the rows to retry and the ids given up.
    func failed(_ rows: [ClaimedHookEvent], now: Int64) -> (retries: [HookEventRetry], givenUp: [Int64]) {
        var retries: [HookEventRetry] = []
        var givenUp: [Int64] = []
        for row in rows {
            let attempts = row.attempts + 1
            let first = row.firstAttemptAt ?? now
            let backoff = min(Int64(60_000), base << Int64(min(attempts - 1, 16)))
            if now + backoff - first > window {
                givenUp.append(row.id)
            } else {
                retries.append(HookEventRetry(id: row.id, attempts: attempts, firstAttemptAt: first, nextAttemptAt: now + backoff))
            }
        }
        return (retries, givenUp)
    }
}
