/// Whether the server should be sent traffic, as a value: the latest store probe and whether
/// the server is draining. Time is passed in (monotonic milliseconds).
struct ReadinessState: Sendable, Equatable {
    /// Why the server is not ready, with a stable code.
    struct Problem: Sendable, Equatable {
        /// `store_unreachable` or `draining`.
        let code: String
        /// What went wrong, for the operator.
        let message: String
    }

    /// A change the operator should hear about (one log line each).
    enum Transition: Sendable, Equatable {
        /// The store stopped answering.
        case storeWentDown(reason: String)
        /// The store answers again after `downMilliseconds`.
        case storeRecovered(downMilliseconds: Int64)
    }

    /// When the store stopped answering and the latest failure, nil while it answers.
    private(set) var storeDown: (since: Int64, reason: String)? = nil
    /// Whether the server stopped taking new work (SIGTERM).
    private(set) var draining = false

    static func == (a: ReadinessState, b: ReadinessState) -> Bool {
        a.draining == b.draining && a.storeDown?.since == b.storeDown?.since && a.storeDown?.reason == b.storeDown?.reason
    }

    /// The reason to answer 503, or nil when ready. Draining comes first: it does not end.
    var problem: Problem? {
        if draining { return Problem(code: "draining", message: "the server is shutting down") }
        if let down = storeDown { return Problem(code: "store_unreachable", message: "the database does not answer: \(down.reason)") }
        return nil
    }

    /// Records a probe's outcome (`failure` nil: the store answered); returns the transition
    /// to log, if this outcome changed the store's state.
    mutating func recordProbe(failure: String?, now: Int64) -> Transition? {
        switch (storeDown, failure) {
        case (nil, let reason?):
            storeDown = (now, reason)
            return .storeWentDown(reason: reason)
        case (let down?, let reason?):
            storeDown = (down.since, reason)
            return nil
        case (let down?, nil):
            storeDown = nil
            return .storeRecovered(downMilliseconds: max(0, now - down.since))
        case (nil, nil):
            return nil
        }
    }

    /// Marks the server as draining (never undone).
    mutating func startDraining() { draining = true }
}
