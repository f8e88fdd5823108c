import ParleyStore
import Testing

@testable import ParleyChat

@Suite("Chat hook outbox retry schedule")
struct HookRetryPolicyTests {
    private func row(_ id: Int64, attempts: Int, first: Int64?) -> ClaimedHookEvent {
        ClaimedHookEvent(id: id, appID: "a", url: "http://127.0.0.1:9/", event: "{}", attempts: attempts, firstAttemptAt: first)
    }

    @Test func backoffDoublesFromTheBaseUpToAMinuteAndCountsFromTheFirstAttempt() {
        let policy = HookRetryPolicy(base: 1000, window: 300_000)
        let (retries, givenUp) = policy.failed(
            [row(1, attempts: 0, first: nil), row(2, attempts: 2, first: 5000), row(3, attempts: 12, first: 0)], now: 10_000)
        #expect(givenUp.isEmpty)
        #expect(
            retries == [
                HookEventRetry(id: 1, attempts: 1, firstAttemptAt: 10_000, nextAttemptAt: 11_000),
                HookEventRetry(id: 2, attempts: 3, firstAttemptAt: 5000, nextAttemptAt: 14_000),
                HookEventRetry(id: 3, attempts: 13, firstAttemptAt: 0, nextAttemptAt: 70_000)
            ])
    }

    @Test func aRowWhoseNextAttemptWouldFallPastTheWindowIsGivenUp() {
        let policy = HookRetryPolicy(base: 1000, window: 300_000)
        let (retries, givenUp) = policy.failed(
            [row(1, attempts: 9, first: 0), row(2, attempts: 0, first: 0)], now: 299_000)
        // Row 1 would wait 60 s, past the window; row 2 waits 1 s, exactly to its end.
        #expect(givenUp == [1])
        #expect(retries.map(\.nextAttemptAt) == [300_000])
        // The window starts at the first attempt: a row that waited out a stopped server is kept.
        let late = policy.failed([row(3, attempts: 0, first: nil)], now: 10_000_000)
        #expect(late.givenUp.isEmpty && late.retries.map(\.firstAttemptAt) == [10_000_000])
    }
}
