import ParleyWire

/// Subscriptions the gate held back (`SubscriptionGateDecision.wait`): decided when the gate
/// reports a change for them, or refused once their bound passes.
extension LocalChannelHub {
    /// How long a held subscription waits for its grant: long enough for a grant signed by
    /// another node to cross the bus and be checked against the store.
    public static let gateWaitMilliseconds: Int64 = 2_000

    static func gateRefusal(_ reason: String) -> PusherSubscribeOutcome {
        .refused(code: PusherErrorCode.unauthorized.rawValue, message: reason, status: 403)
    }

    /// The gate's answer for `socketID` on `channel` may have changed (a grant was confirmed):
    /// a subscription held for it is admitted now, or held on if the gate still says wait.
    public func reconsider(app: String, socketID: String, channel: String) {
        let now = clock()
        let gate = self.gate.withLock { $0 }
        let observer = shareObserver.withLock { $0 }
        state.withLock { s in
            guard let entry = s.held.take(socketID: socketID, channel: channel), entry.app.id == app else { return }
            decide(&s, entry, gate: gate, now: now, observer: observer, final: false)
        }
    }

    /// Decides every held subscription whose bound has passed: admitted if the gate admits it
    /// now, refused otherwise.
    func decideExpiredHolds(now: Int64) {
        let gate = self.gate.withLock { $0 }
        let observer = shareObserver.withLock { $0 }
        state.withLock { s in
            guard !s.held.isEmpty else { return }
            for entry in s.held.takeExpired(now: now) {
                decide(&s, entry, gate: gate, now: now, observer: observer, final: true)
            }
        }
    }

    /// Asks the gate again about a held subscription, with the lock held (so a revocation
    /// either sees the admitted subscription or withdrew the grant first, as for `subscribe`).
    private func decide(
        _ s: inout State, _ entry: HeldSubscriptions.Entry, gate: (any SubscriptionGate)?, now: Int64,
        observer: (any ChannelShareObserver)?, final: Bool
    ) {
        let subscriber = entry.subscriber, channel = entry.request.channel.name
        let refusal: String
        switch gate?.decision(app: entry.app.id, socketID: subscriber.socketID, channel: channel) ?? .admit {
        case .admit:
            _ = admit(&s, app: entry.app, subscriber: subscriber, request: entry.request, now: now, observer: observer, late: true)
            return
        case .wait where !final:
            s.held.hold(entry)
            return
        case .wait(let reason), .refuse(let reason):
            refusal = reason
        }
        let outcome = Self.gateRefusal(refusal)
        loops[subscriber.loopIndex].execute { subscriber.subscriptionDecided(channel: channel, outcome) }
    }
}
