/// When to reconnect after a connection ends, following the Pusher close-code classes:
/// 4000–4099 never unchanged, 4100–4199 after backoff, 4200–4299 at once; anything else
/// (network loss, 1006, 1001…) after backoff.
public struct ReconnectPolicy: Sendable, Equatable {
    /// What to do next.
    public enum Decision: Sendable, Equatable {
        /// Do not reconnect: the server said trying again unchanged will not help.
        case stop
        /// Reconnect after this delay.
        case retry(after: Duration)
    }

    /// The first backoff delay.
    public var initialDelay: Duration
    /// The largest backoff delay.
    public var maximumDelay: Duration
    /// How many "reconnect at once" attempts in a row before falling back to backoff.
    public var immediateLimit: Int

    /// Creates a policy.
    public init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), immediateLimit: Int = 2) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.immediateLimit = immediateLimit
    }

    /// The decision for the `attempt`-th reconnect (1-based) after close `code`; `random` in
    /// [0, 1) jitters the delay between half and all of the exponential step.
    public func decision(closeCode code: Int?, attempt: Int, random: Double) -> Decision {
        if let code, (4000...4099).contains(code) { return .stop }
        if let code, (4200...4299).contains(code), attempt <= immediateLimit { return .retry(after: .zero) }
        return .retry(after: backoff(attempt: attempt, random: random))
    }

    /// Equal jitter over a doubling step: step/2 + random·step/2, step = initial·2^(attempt−1) capped.
    func backoff(attempt: Int, random: Double) -> Duration {
        let initial = Self.milliseconds(initialDelay), maximum = Self.milliseconds(maximumDelay)
        var step = initial
        for _ in 1..<max(1, attempt) where step < maximum { step *= 2 }
        step = min(step, maximum)
        let jittered = Double(step) / 2 + min(max(random, 0), 1) * Double(step) / 2
        return .milliseconds(Int64(jittered))
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
