import Testing

@testable import ParleyWire

/// The request clocks with time passed in: no sockets, no sleeps.
@Suite struct HTTPRequestDeadlineTests {
    static let second: UInt64 = 1_000_000_000
    static let policy = HTTPRequestDeadline.Policy(
        headTimeout: .seconds(10), bodyTimeout: .seconds(60),
        minimumBodyRate: 1000, bodyGracePeriod: .seconds(5))

    @Test func nothingArrivingIsNotWatched() {
        let deadline = HTTPRequestDeadline(policy: Self.policy)
        #expect(deadline.verdict(at: 123 * Self.second) == .idle)
        #expect(!deadline.isWatching)
    }

    @Test func theHeadClockDoesNotRestartWithEveryByte() {
        var deadline = HTTPRequestDeadline(policy: Self.policy)
        let start = 100 * Self.second
        deadline.headStarted(at: start)
        #expect(deadline.verdict(at: start) == .wait(until: start + 10 * Self.second))
        // More of the head trickles in every second: the deadline stays where it was.
        for tick in 1...9 {
            deadline.headStarted(at: start + UInt64(tick) * Self.second)
            #expect(deadline.verdict(at: start + UInt64(tick) * Self.second) == .wait(until: start + 10 * Self.second))
        }
        #expect(deadline.verdict(at: start + 10 * Self.second) == .expired(.head))
    }

    @Test func aCompleteRequestStopsTheClock() {
        var deadline = HTTPRequestDeadline(policy: Self.policy)
        deadline.headStarted(at: 0)
        deadline.bodyStarted(at: Self.second)
        deadline.bodyReceived(10)
        deadline.finished()
        #expect(deadline.verdict(at: 1000 * Self.second) == .idle)
        // The next request's head gets a fresh clock.
        deadline.headStarted(at: 2000 * Self.second)
        #expect(deadline.verdict(at: 2000 * Self.second) == .wait(until: 2010 * Self.second))
    }

    @Test func aBodyWithinTheGracePeriodMayArriveAtAnyRate() {
        var deadline = HTTPRequestDeadline(policy: Self.policy)
        deadline.bodyStarted(at: 0)
        // Nothing for five seconds: still fine, and the next look is when a byte is owed.
        #expect(deadline.verdict(at: 4 * Self.second) == .wait(until: 5 * Self.second + Self.second / 1000))
        #expect(deadline.verdict(at: 5 * Self.second) == .wait(until: 5 * Self.second + Self.second / 1000))
        #expect(deadline.verdict(at: 5 * Self.second + Self.second / 1000) == .expired(.bodyRate))
    }

    @Test func aBodyBelowTheMinimumRateExpires() {
        var deadline = HTTPRequestDeadline(policy: Self.policy)
        deadline.bodyStarted(at: 0)
        // 1,000 bytes/s after the grace: at 15 s, 10,000 bytes are owed.
        deadline.bodyReceived(10_000)
        #expect(deadline.verdict(at: 15 * Self.second) == .wait(until: 15 * Self.second + Self.second / 1000))
        deadline.bodyReceived(999)
        #expect(deadline.verdict(at: 16 * Self.second) == .expired(.bodyRate))
    }

    @Test func aSteadyBodyAtTheMinimumRateLivesUntilTheTotalBound() {
        var deadline = HTTPRequestDeadline(policy: Self.policy)
        deadline.bodyStarted(at: 0)
        var now: UInt64 = 0
        // One byte more than owed every 100 ms keeps it going.
        while now < 60 * Self.second {
            deadline.bodyReceived(101)
            now += Self.second / 10
            if now < 60 * Self.second {
                guard case .wait(let until) = deadline.verdict(at: now) else {
                    Issue.record("expired at \(now)")
                    return
                }
                #expect(until > now && until <= 60 * Self.second)
            }
        }
        #expect(deadline.verdict(at: 60 * Self.second) == .expired(.body))
    }

    @Test func aFastBodyIsCutOnlyByTheTotalBound() {
        var deadline = HTTPRequestDeadline(policy: Self.policy)
        deadline.bodyStarted(at: 0)
        deadline.bodyReceived(1 << 30)
        #expect(deadline.verdict(at: 59 * Self.second) == .wait(until: 60 * Self.second))
        #expect(deadline.verdict(at: 60 * Self.second) == .expired(.body))
    }

    @Test func boundsCanBeTurnedOff() {
        var deadline = HTTPRequestDeadline(
            policy: .init(
                headTimeout: .seconds(1), bodyTimeout: nil, minimumBodyRate: 0,
                bodyGracePeriod: .seconds(1)))
        deadline.bodyStarted(at: 0)
        #expect(deadline.verdict(at: 1_000_000 * Self.second) == .wait(until: .max))
    }

    @Test func hugeValuesDoNotOverflow() {
        var deadline = HTTPRequestDeadline(
            policy: .init(
                headTimeout: .seconds(Int64.max / 2), bodyTimeout: .seconds(Int64.max / 2),
                minimumBodyRate: 1, bodyGracePeriod: .seconds(Int64.max / 2)))
        deadline.headStarted(at: .max - 5)
        #expect(deadline.verdict(at: .max - 5) == .wait(until: .max))
        deadline.bodyStarted(at: 10)
        deadline.bodyReceived(Int.max)
        #expect(deadline.verdict(at: 20) == .wait(until: .max))
    }
}
