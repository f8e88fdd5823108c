/// The clock rules for one connection's incoming request: how long its head may take to
/// arrive, and how long and how slowly its body may.
///
/// Sans-I/O: the caller passes in the time (nanoseconds of any monotonic clock) and arms one
/// timer for the instant ``verdict(at:)`` names; when it fires it asks again. Arriving bytes
/// never move the head deadline (a client trickling a head one byte at a time gets no more
/// time than one that sends nothing) and move the body deadline only as far as the minimum
/// rate allows, so a connection can hold the server only as long as the policy says.
public struct HTTPRequestDeadline: Sendable, Equatable {
    /// The limits.
    public struct Policy: Sendable, Equatable {
        /// Longest time from a request's first byte to the end of its head.
        public var headTimeout: Duration
        /// Longest time from the end of a head to the end of its body; nil: no total bound.
        public var bodyTimeout: Duration?
        /// Least average body rate, in bytes per second, counted from the end of the grace
        /// period; 0: no rate bound.
        public var minimumBodyRate: Int
        /// Time after the head during which a body may arrive at any rate (a client may wait
        /// for `100 Continue`, a proxy may buffer).
        public var bodyGracePeriod: Duration

        /// Creates a policy; the defaults are a 10 s head, a 300 s body and at least 1 KiB/s
        /// after a 10 s grace period.
        public init(
            headTimeout: Duration = .seconds(10), bodyTimeout: Duration? = .seconds(300),
            minimumBodyRate: Int = 1024, bodyGracePeriod: Duration = .seconds(10)
        ) {
            self.headTimeout = headTimeout
            self.bodyTimeout = bodyTimeout
            self.minimumBodyRate = max(0, minimumBodyRate)
            self.bodyGracePeriod = bodyGracePeriod
        }
    }

    /// Which rule a request broke.
    public enum Expiry: Sendable, Equatable {
        /// The head took longer than `headTimeout`.
        case head
        /// The body took longer than `bodyTimeout`.
        case body
        /// The body arrived slower than `minimumBodyRate`.
        case bodyRate
    }

    /// What the clock says now.
    public enum Verdict: Sendable, Equatable {
        /// No request is arriving: nothing to watch.
        case idle
        /// Within the rules; ask again at this instant (nanoseconds) at the latest.
        case wait(until: UInt64)
        /// A rule is broken: answer 408 and close.
        case expired(Expiry)
    }

    private enum Phase: Sendable, Equatable {
        case idle
        case head(since: UInt64)
        case body(since: UInt64, received: Int)
    }

    /// The limits in force.
    public let policy: Policy
    private var phase: Phase = .idle

    /// Creates a deadline with nothing arriving yet.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Whether a request's head or body is being watched.
    public var isWatching: Bool { phase != .idle }

    /// Part of a head has arrived; the head clock starts now unless it already runs.
    public mutating func headStarted(at now: UInt64) {
        if case .head = phase { return }
        phase = .head(since: now)
    }

    /// A head is complete and a body follows: the body clock starts now.
    public mutating func bodyStarted(at now: UInt64) {
        phase = .body(since: now, received: 0)
    }

    /// Body bytes arrived.
    public mutating func bodyReceived(_ count: Int) {
        guard case .body(let since, let received) = phase else { return }
        let (sum, overflow) = received.addingReportingOverflow(max(0, count))
        phase = .body(since: since, received: overflow ? .max : sum)
    }

    /// The request has arrived whole (or the connection stopped reading): nothing to watch.
    public mutating func finished() {
        phase = .idle
    }

    /// Whether the request is within the rules at `now`, and until when.
    public func verdict(at now: UInt64) -> Verdict {
        switch phase {
        case .idle:
            return .idle
        case .head(let since):
            let deadline = Self.adding(policy.headTimeout, to: since)
            return now >= deadline ? .expired(.head) : .wait(until: deadline)
        case .body(let since, let received):
            var next = UInt64.max
            if let timeout = policy.bodyTimeout {
                let deadline = Self.adding(timeout, to: since)
                if now >= deadline { return .expired(.body) }
                next = deadline
            }
            if policy.minimumBodyRate > 0 {
                let graceEnd = Self.adding(policy.bodyGracePeriod, to: since)
                if now >= graceEnd {
                    let owed = Self.bytes(in: now - graceEnd, rate: policy.minimumBodyRate)
                    if received < owed { return .expired(.bodyRate) }
                }
                next = min(next, Self.instantOwing(min(received, .max - 1) + 1, rate: policy.minimumBodyRate, from: graceEnd))
            }
            return .wait(until: next)
        }
    }

    /// Bytes a client sending at `rate` bytes per second sends in `elapsed` nanoseconds.
    static func bytes(in elapsed: UInt64, rate: Int) -> Int {
        let (product, overflow) = elapsed.multipliedReportingOverflow(by: UInt64(rate))
        guard !overflow else { return Int.max }
        return Int(min(product / 1_000_000_000, UInt64(Int.max)))
    }

    /// The first instant at which `count` bytes are owed, counting at `rate` from `start`.
    static func instantOwing(_ count: Int, rate: Int, from start: UInt64) -> UInt64 {
        let (product, overflow) = UInt64(count).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let elapsed = (product + UInt64(rate) - 1) / UInt64(rate)
        let (instant, late) = start.addingReportingOverflow(elapsed)
        return late ? .max : instant
    }

    static func adding(_ duration: Duration, to instant: UInt64) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return instant }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (sum, late) = instant.addingReportingOverflow(whole + UInt64(attoseconds / 1_000_000_000))
        return late ? .max : sum
    }
}
