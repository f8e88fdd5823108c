import ParleyWire

/// Subscriptions admitted to the directory whose answer (`subscription_succeeded`) waits until
/// the cluster's store has this node's claim of the channel (`ChannelShareObserver.answerAfterClaims`).
/// Until then the subscriber is counted everywhere but gets no events; its answer is made from
/// the directory when it goes (members, cached event and count as they are by then).
extension LocalChannelHub {
    /// Longest a subscription's answer waits for the store's acknowledgement: a store that
    /// neither answers nor fails a claim must not leave the client waiting for ever.
    public static let claimWaitMilliseconds: Int64 = 2_000

    /// With the lock held, right after the subscription was reported: true when its answer
    /// waits (the subscription is kept in `awaiting` until `answerAwaiting`).
    func awaitClaims(
        _ s: inout State, app: AppConfig, subscriber: any ChannelSubscriber, request: PusherSubscribeRequest, now: Int64,
        observer: (any ChannelShareObserver)?
    ) -> Bool {
        let appID = app.id, socketID = subscriber.socketID, channel = request.channel.name
        // The answer needs this hub's lock, which the observer's caller never holds.
        let waits =
            observer?.answerAfterClaims(app: appID, channel: channel) { [weak self] in
                self?.answerAwaiting(app: appID, socketID: socketID, channel: channel)
            } ?? false
        guard waits else { return false }
        s.awaiting.hold(
            HeldSubscriptions.Entry(
                app: app, subscriber: subscriber, request: request, deadline: now + Self.claimWaitMilliseconds, reason: ""))
        return true
    }

    /// The claim a subscription waited for was answered: it joins the fan-out and is answered.
    func answerAwaiting(app: String, socketID: String, channel: String) {
        let now = clock()
        state.withLock { s in
            guard let entry = s.awaiting.take(socketID: socketID, channel: channel), entry.app.id == app else { return }
            answer(&s, entry, now: now)
        }
    }

    /// Answers the subscriptions whose claim is overdue.
    func answerOverdueAwaiting(now: Int64) {
        state.withLock { s in
            guard !s.awaiting.isEmpty else { return }
            for entry in s.awaiting.takeExpired(now: now) { answer(&s, entry, now: now) }
        }
    }

    /// With the lock held: the fan-out entry and the answer in one task on the subscriber's
    /// loop, so no event reaches it before its `subscription_succeeded`, and every broadcast
    /// decided after this does.
    private func answer(_ s: inout State, _ entry: HeldSubscriptions.Entry, now: Int64) {
        let subscriber = entry.subscriber, appID = entry.app.id, channel = entry.request.channel.name
        guard s.directory.isSubscribed(app: appID, socketID: subscriber.socketID, channel: channel) else { return }
        // Subscribing again changes nothing for a socket already in; it reads the answer as of now.
        let (outcome, _) = s.directory.subscribe(app: entry.app, socketID: subscriber.socketID, request: entry.request, now: now)
        let count = s.directory.subscriptionCountFrame(app: entry.app, channel: entry.request.channel).map(ChannelFrame.init(json:))
        let table = tables[subscriber.loopIndex]
        loops[subscriber.loopIndex].execute {
            table.add(app: appID, channel: channel, subscriber)
            subscriber.subscriptionDecided(channel: channel, outcome)
            // The count broadcast when it was admitted did not reach it.
            if let count { subscriber.deliver(count) }
        }
    }
}
