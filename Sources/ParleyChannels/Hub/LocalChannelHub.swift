import ParleyWire
import Synchronization

/// The in-process hub: one authoritative `ChannelDirectory` behind a lock (subscribe-time
/// work only) and, per event loop, a table of that loop's subscribers for fan-out.
///
/// Publishing never takes the directory lock (except to remember a cache channel's event):
/// it hands each loop one closure carrying the already-encoded frames, and each loop
/// appends them to its own subscribers' queues.
public final class LocalChannelHub: ChannelHub, @unchecked Sendable {
    // @unchecked: `tables[i]` is only touched on loop i (see LoopChannelTable); everything
    // else is immutable or inside `state`.

    struct State: ~Copyable {
        var directory = ChannelDirectory()
        var handles: [String: any ChannelSubscriber] = [:]
        /// socket id → its app's id.
        var socketApps: [String: String] = [:]
        /// Subscriptions the gate asked to wait for (see `SubscriptionGateDecision.wait`).
        var held = HeldSubscriptions()
        /// Subscriptions admitted whose answer waits for the cluster's claim (see `answerAfterClaims`).
        var awaiting = HeldSubscriptions()
    }

    let loops: [any HubLoop]
    let tables: [LoopChannelTable]
    let state = Mutex(State())
    private let userObserver = Mutex<(any SignedInUserObserver)?>(nil)
    let gate = Mutex<(any SubscriptionGate)?>(nil)
    let shareObserver = Mutex<(any ChannelShareObserver)?>(nil)
    /// With a cluster, occupancy and member webhooks are the cluster's to decide (`ClusterClaim`).
    let clusterDecidesWebhooks = Atomic<Bool>(false)
    let clock: @Sendable () -> Int64
    /// Where webhook events go (nil: none).
    public let webhooks: (any WebhookSink)?
    /// The service's counters.
    public let metrics: ChannelsMetrics

    /// Creates a hub over the given loops; `clock` is monotonic milliseconds.
    public init(
        loops: [any HubLoop], clock: @escaping @Sendable () -> Int64, webhooks: (any WebhookSink)? = nil,
        metrics: ChannelsMetrics = ChannelsMetrics()
    ) {
        precondition(!loops.isEmpty, "a hub needs at least one loop")
        self.loops = loops
        self.tables = loops.map { _ in LoopChannelTable() }
        self.clock = clock
        self.webhooks = webhooks
        self.metrics = metrics
    }

    public func connect(app: AppConfig, subscriber: any ChannelSubscriber) -> Bool {
        connect(app: app, subscriber: subscriber, elsewhere: 0)
    }

    /// Admits a connection while `elsewhere` more of the app's are open on other nodes.
    public func connect(app: AppConfig, subscriber: any ChannelSubscriber, elsewhere: Int) -> Bool {
        state.withLock { s in
            guard s.directory.connect(app: app, elsewhere: elsewhere) else { return false }
            s.handles[subscriber.socketID] = subscriber
            s.socketApps[subscriber.socketID] = app.id
            return true
        }
    }

    public func disconnect(app: AppConfig, subscriber: any ChannelSubscriber) {
        let removed = state.withLock { s in
            guard s.handles.removeValue(forKey: subscriber.socketID) != nil else { return false }
            s.socketApps[subscriber.socketID] = nil
            s.held.drop(socketID: subscriber.socketID)
            s.awaiting.drop(socketID: subscriber.socketID)
            s.directory.disconnect(app: app)
            return true
        }
        if removed { gate.withLock { $0 }?.socketClosed(app: app.id, socketID: subscriber.socketID) }
    }

    /// Sets the rule subscriptions must pass (replacing any earlier one; nil: none).
    public func setSubscriptionGate(_ gate: (any SubscriptionGate)?) {
        self.gate.withLock { $0 = gate }
    }

    /// Whether a connection of the app with this socket id is open.
    public func isConnected(app: String, socketID: String) -> Bool {
        state.withLock { s in s.socketApps[socketID] == app }
    }

    public func subscribe(app: AppConfig, subscriber: any ChannelSubscriber, request: PusherSubscribeRequest) -> PusherSubscribeOutcome {
        let now = clock()
        let gate = self.gate.withLock { $0 }
        let observer = shareObserver.withLock { $0 }
        return state.withLock { s in
            // Asked under the lock: a revocation either finds this subscription in the
            // directory or withdrew the grant before the gate was asked (see SubscriptionGate).
            switch gate?.decision(app: app.id, socketID: subscriber.socketID, channel: request.channel.name) ?? .admit {
            case .admit:
                break
            case .refuse(let reason):
                return Self.gateRefusal(reason)
            case .wait(let reason):
                s.held.hold(
                    HeldSubscriptions.Entry(
                        app: app, subscriber: subscriber, request: request, deadline: now + Self.gateWaitMilliseconds, reason: reason))
                return .held
            }
            return admit(&s, app: app, subscriber: subscriber, request: request, now: now, observer: observer)
        }
    }

    /// Subscribes a socket the gate admitted, with the lock held. `late`: the subscription was
    /// held, so the outcome goes to the subscriber on its loop (after its fan-out entry, in the
    /// same task, so no event reaches it before its `subscription_succeeded`).
    func admit(
        _ s: inout State, app: AppConfig, subscriber: any ChannelSubscriber, request: PusherSubscribeRequest, now: Int64,
        observer: (any ChannelShareObserver)?, late: Bool = false
    ) -> PusherSubscribeOutcome {
        let table = tables[subscriber.loopIndex], appID = app.id, channel = request.channel.name
        let (outcome, effects) = s.directory.subscribe(app: app, socketID: subscriber.socketID, request: request, now: now)
        // Effects and the fan-out registration are queued while the lock is held, so every
        // loop sees membership changes in directory order: a broadcast decided before this
        // subscription never reaches the new subscriber, one decided after (including the
        // subscription_count this one causes) always does; member_added excludes it by id.
        // One awaiting the cluster's claim joins the fan-out when it is answered, and its
        // answer is made then, from the directory as it is by that time.
        if case .succeeded = outcome {
            observer?.report(s.directory, app: appID, channel: channel)
            if awaitClaims(&s, app: app, subscriber: subscriber, request: request, now: now, observer: observer) {
                perform(effects, handles: s.handles, app: app)
                return .held
            }
            loops[subscriber.loopIndex].execute {
                table.add(app: appID, channel: channel, subscriber)
                if late { subscriber.subscriptionDecided(channel: channel, outcome) }
            }
        } else if late {
            loops[subscriber.loopIndex].execute { subscriber.subscriptionDecided(channel: channel, outcome) }
        }
        perform(effects, handles: s.handles, app: app)
        return outcome
    }

    public func unsubscribe(app: AppConfig, subscriber: any ChannelSubscriber, channel: String) {
        let now = clock()
        let table = tables[subscriber.loopIndex], appID = app.id
        let observer = shareObserver.withLock { $0 }
        state.withLock { s in
            // A subscription still held is simply forgotten: it will never be decided.
            if s.held.take(socketID: subscriber.socketID, channel: channel) != nil { return }
            // One still awaiting its answer is in the directory: it leaves like any other.
            _ = s.awaiting.take(socketID: subscriber.socketID, channel: channel)
            loops[subscriber.loopIndex].execute { table.remove(app: appID, channel: channel, subscriber) }
            perform(
                s.directory.unsubscribe(app: app, socketID: subscriber.socketID, channel: channel, now: now), handles: s.handles, app: app)
            observer?.report(s.directory, app: appID, channel: channel)
        }
    }

    public func signIn(app: AppConfig, subscriber: any ChannelSubscriber, user: PusherSignedInUser) {
        state.withLock { s in
            perform(s.directory.signIn(app: app, socketID: subscriber.socketID, user: user), handles: s.handles, app: app)
        }
        userObserver.withLock { $0 }?.userSignedIn(app: app, userID: user.userID, socketID: subscriber.socketID)
    }

    public func signOut(app: AppConfig, subscriber: any ChannelSubscriber, userID: String) {
        state.withLock { s in
            perform(s.directory.signOut(app: app, socketID: subscriber.socketID, userID: userID), handles: s.handles, app: app)
        }
        userObserver.withLock { $0 }?.userSignedOut(app: app, userID: userID, socketID: subscriber.socketID)
    }

    /// Sets who hears of sign-ins and sign-outs (replacing any earlier observer; nil: nobody).
    /// Applications above the channels (chat presence) use it; the hub itself does not care.
    public func setUserObserver(_ observer: (any SignedInUserObserver)?) {
        userObserver.withLock { $0 = observer }
    }

    public func publish(app: AppConfig, events: [HubEvent]) {
        guard !events.isEmpty else { return }
        let cached = events.filter { Self.mayBeCacheChannel($0.channel) && (PusherChannel($0.channel)?.isCache ?? false) }
        if !cached.isEmpty {
            let now = clock()
            state.withLock { s in
                for event in cached {
                    s.directory.storeCache(app: app.id, channel: event.channel, frame: event.frame, data: event.data, now: now)
                }
            }
        }
        let appID = app.id
        let metrics = self.metrics.app(appID)
        ChannelsMetrics.add(metrics.eventsPublished, events.count)
        let frames = events.map { ChannelFrame(json: $0.frame) }
        for (i, loop) in loops.enumerated() {
            let table = tables[i]
            loop.execute {
                for (event, frame) in zip(events, frames) {
                    let count = table.deliver(app: appID, channel: event.channel, frame: frame, excluding: event.excluding)
                    Self.countDelivered(count, of: frame, in: metrics)
                }
            }
        }
    }

    /// Whether a name contains `cache-`, as every cache channel's does: a byte scan that spares
    /// the full validation of every other published channel's name.
    static func mayBeCacheChannel(_ name: String) -> Bool {
        let marker: StaticString = "cache-"
        return marker.withUTF8Buffer { needle in
            var utf8 = name.utf8[...]
            while let start = utf8.firstIndex(of: needle[0]) {
                if utf8[start...].starts(with: needle) { return true }
                utf8 = utf8[utf8.index(after: start)...]
            }
            return false
        }
    }

    /// One lock round for the whole list; the directory knows every loop's subscriptions, and
    /// a subscription it holds was queued to its loop's table before the lock was released, so
    /// an event published after a `true` here reaches it.
    public func hasSubscribers(app: AppConfig, channels: [String]) -> [Bool] {
        state.withLock { s in channels.map { s.directory.hasSubscribers(app: app.id, channel: $0) } }
    }

    public func terminateUser(app: AppConfig, userID: String) {
        let targets: [any ChannelSubscriber] = state.withLock { s in
            s.directory.sockets(app: app.id, userID: userID).compactMap { s.handles[$0] }
        }
        for target in targets {
            loops[target.loopIndex].execute {
                target.terminate(.unauthorized, message: "Connection terminated by the server for user \(userID)")
            }
        }
    }

    public func revokeSubscriptions(app: AppConfig, _ revocations: [SubscriptionRevocation]) {
        guard !revocations.isEmpty else { return }
        let now = clock()
        let appID = app.id
        let observer = shareObserver.withLock { $0 }
        state.withLock { s in
            for revocation in revocations {
                let channel = revocation.channel
                let notice = ChannelFrame(json: revocation.noticeFrame)
                for socketID in Self.targets(of: revocation, in: s.directory, app: appID) {
                    guard let target = s.handles[socketID] else { continue }
                    let table = tables[target.loopIndex]
                    // One task: the fan-out entry goes before anything published after this
                    // call is delivered on that loop, and the notice is the socket's last word
                    // on the channel.
                    loops[target.loopIndex].execute {
                        table.remove(app: appID, channel: channel, target)
                        target.revoke(channel: channel, notice: notice)
                    }
                    perform(s.directory.unsubscribe(app: app, socketID: socketID, channel: channel, now: now), handles: s.handles, app: app)
                }
                observer?.report(s.directory, app: appID, channel: channel)
            }
        }
    }

    /// The subscribed sockets a revocation names.
    private static func targets(of revocation: SubscriptionRevocation, in directory: ChannelDirectory, app: String) -> [String] {
        let subscribed = directory.subscribers(app: app, channel: revocation.channel)
        switch revocation.target {
        case .all:
            return subscribed.sorted()
        case .sockets(let sockets, let user):
            let signedIn = user.map { Set(directory.sockets(app: app, userID: $0)) } ?? []
            return subscribed.filter { sockets.contains($0) || signedIn.contains($0) }.sorted()
        }
    }

    public func snapshot(app: AppConfig, channel: String) -> ChannelSnapshot {
        let now = clock()
        return state.withLock { s in s.directory.snapshot(app: app.id, channel: channel, now: now) }
    }

    public func occupiedChannels(app: AppConfig, prefix: String?) -> [String] {
        state.withLock { s in s.directory.occupiedChannels(app: app.id, prefix: prefix) }
    }

    public func presenceUsers(app: AppConfig, channel: String) -> [String] {
        state.withLock { s in s.directory.presenceUsers(app: app.id, channel: channel) }
    }

    /// Occupied channels over every app (for `/metrics`).
    /// Occupied channels per app id.
    public func channelCounts(apps: [AppConfig]) -> [String: Int] {
        state.withLock { s in
            Dictionary(apps.map { ($0.id, s.directory.occupiedChannels(app: $0.id, prefix: nil).count) }, uniquingKeysWith: +)
        }
    }

    public func channelCount(apps: [AppConfig]) -> Int {
        state.withLock { s in apps.reduce(0) { $0 + s.directory.occupiedChannels(app: $1.id, prefix: nil).count } }
    }

    /// Periodic work: throttled subscription counts. Call about once a second.
    public func tick(apps: AppRegistry) {
        let now = clock()
        decideExpiredHolds(now: now)
        answerOverdueAwaiting(now: now)
        state.withLock { s in
            let effects = s.directory.tick(now: now)
            for effect in effects {
                let appID: String
                switch effect {
                case .broadcast(let a, _, _, _), .send(let a, _, _), .webhook(let a, _): appID = a
                }
                if let app = apps.app(id: appID) { perform([effect], handles: s.handles, app: app) }
            }
        }
    }

    /// Carries out directory effects: broadcasts to every loop, direct sends to the
    /// target's loop, webhooks to the sink. Called with the state lock held.
    func perform(_ effects: [DirectoryEffect], handles: [String: any ChannelSubscriber], app: AppConfig) {
        for effect in effects {
            switch effect {
            case .broadcast(let appID, let channel, let json, let excluding):
                let frame = ChannelFrame(json: json)
                let metrics = self.metrics.app(appID)
                for (i, loop) in loops.enumerated() {
                    let table = tables[i]
                    loop.execute {
                        let count = table.deliver(app: appID, channel: channel, frame: frame, excluding: excluding)
                        Self.countDelivered(count, of: frame, in: metrics)
                    }
                }
            case .send(let appID, let socketID, let json):
                guard let target = handles[socketID] else { continue }
                let frame = ChannelFrame(json: json)
                let metrics = self.metrics.app(appID)
                loops[target.loopIndex].execute {
                    Self.countDelivered(target.deliver(frame) ? 1 : 0, of: frame, in: metrics)
                }
            case .webhook(_, let event):
                if ClusterClaim.decides(event.kind), clusterDecidesWebhooks.load(ordering: .relaxed) { continue }
                webhooks?.enqueue(app: app, event: event)
            }
        }
    }

    /// Adds a fan-out's deliveries to the outbound counters: two atomic adds per fan-out and
    /// loop instead of two per subscriber.
    private static func countDelivered(_ count: Int, of frame: ChannelFrame, in metrics: AppTraffic) {
        guard count > 0 else { return }
        ChannelsMetrics.add(metrics.messagesOut, count)
        ChannelsMetrics.add(metrics.bytesOut, count * frame.json.count)
    }
}
