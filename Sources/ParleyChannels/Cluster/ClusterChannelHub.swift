import ParleyWire
import Synchronization

/// A hub shared by every node on a bus: it wraps this node's `LocalChannelHub`, which keeps
/// serving this node's sockets, and
///
/// - forwards each `publish` to the other nodes in one bus message (one per call, not per
///   subscriber or node); a receiving node hands the frames to its local hub, which encodes
///   each WebSocket frame once for all of its subscribers. Events reach this node's
///   subscribers at once and the other nodes' in the order this node published them.
///   Events on channels no other node subscribes to (as far as this node has heard) do not
///   travel, except on cache channels, which every node remembers;
/// - numbers every change of this node's subscriptions and presence members (its share),
///   sends it as a delta, and stores the whole share in Redis every second with an expiry,
///   so a node that starts late or missed deltas reads it, and a dead node's share lapses;
/// - answers `snapshot`, `occupiedChannels`, `hasSubscribers` and `presenceUsers` for the
///   whole cluster from its replica of the other nodes' shares;
/// - runs this node's arrivals and departures through the store as claims, which decide the
///   occupancy and member webhooks once for the cluster, and holds a subscription's answer
///   until the store has its arrival (`ClusterClaimLedger`).
///
/// When the bus is down, each node keeps serving its own sockets; events published meanwhile
/// do not reach other nodes (see ARCHITECTURE.md, "How nodes share one hub").
public final class ClusterChannelHub: ChannelHub, ChannelShareObserver, Sendable {
    /// The hub of this node's own sockets.
    public let local: LocalChannelHub
    /// This node's id on the bus.
    public let nodeID: String
    /// Counters and connection state.
    public let statistics: ClusterStatistics
    /// The refresh and expiry periods.
    public let timings: ClusterTimings
    private let boot: UInt64
    private let transport: any ClusterTransport
    private let apps: AppRegistry
    private let clock: @Sendable () -> Int64

    private struct State {
        var share = ClusterShare()
        var replica = ClusterReplica()
        var lastStored: Int64 = .min
        var lastSwept: Int64 = .min
        var noticeHandlers: [String: @Sendable ([UInt8]) -> Void] = [:]
        var online = ClusterOnlineLedger()
        var onlineHandler: OnlineHandler?
        var eventFilter: EventFilter?
        var connectionHandlers: [@Sendable (Bool) -> Void] = []
        /// When the bus last came back: until a share's lifetime has passed, a node missing
        /// from Redis may only not have stored its share again yet.
        var reconnectedAt: Int64?
    }

    /// Hears a user come online or go offline cluster-wide: `(app, user, online, announce)`,
    /// `announce` true on exactly one node (see `setOnlineHandler`).
    public typealias OnlineHandler = @Sendable (_ app: String, _ user: String, _ online: Bool, _ announce: Bool) -> Void
    /// Decides whether an event received from another node reaches this node's subscribers.
    public typealias EventFilter = @Sendable (_ app: String, _ event: ClusterEvent) -> Bool

    private let state = Mutex(State())
    /// Its own lock: a transport without a store answers a claim while `state` is held.
    private let ledger = Mutex(ClusterClaimLedger())

    /// Creates the hub; call `start()` before serving. `clock` is monotonic milliseconds.
    public init(
        local: LocalChannelHub, nodeID: String, transport: any ClusterTransport, apps: AppRegistry,
        clock: @escaping @Sendable () -> Int64, timings: ClusterTimings = ClusterTimings(),
        statistics: ClusterStatistics = ClusterStatistics()
    ) {
        var random = SystemRandomNumberGenerator()
        self.local = local
        self.nodeID = nodeID
        self.transport = transport
        self.apps = apps
        self.clock = clock
        self.timings = timings
        self.statistics = statistics
        self.boot = random.next()
    }

    /// Starts listening to the bus, observing the local hub, and stores the (empty) share at
    /// once so the other nodes' first sweep finds this node.
    public func start() {
        local.setShareObserver(self)
        local.setClusterDecidesWebhooks(true)
        transport.setLapseHandler { [weak self] claims in self?.fire(claims) }
        transport.releaseEarlierClaims(node: nodeID)
        statistics.observeConnection { [weak self] connected in self?.connectionChanged(connected) }
        transport.start { [weak self] payload in self?.receive(payload) }
        transport.loadCaches { [weak self] values in self?.rememberCaches(values) }
        tick()
    }

    /// Stops listening; the share lapses after its lifetime.
    public func stop() {
        local.setShareObserver(nil)
        statistics.observeConnection(nil)
        transport.stop()
    }

    // MARK: ChannelHub

    /// The app's connection limit counts the other nodes' connections as last shared (see `tick`).
    public func connect(app: AppConfig, subscriber: any ChannelSubscriber) -> Bool {
        let elsewhere = app.limits.maxConnections == nil ? 0 : state.withLock { $0.replica.remoteConnections(app.id) }
        return local.connect(app: app, subscriber: subscriber, elsewhere: elsewhere)
    }

    public func disconnect(app: AppConfig, subscriber: any ChannelSubscriber) { local.disconnect(app: app, subscriber: subscriber) }

    public func subscribe(app: AppConfig, subscriber: any ChannelSubscriber, request: PusherSubscribeRequest) -> PusherSubscribeOutcome {
        local.subscribe(app: app, subscriber: subscriber, request: request)
    }

    public func unsubscribe(app: AppConfig, subscriber: any ChannelSubscriber, channel: String) {
        local.unsubscribe(app: app, subscriber: subscriber, channel: channel)
    }

    public func signIn(app: AppConfig, subscriber: any ChannelSubscriber, user: PusherSignedInUser) {
        local.signIn(app: app, subscriber: subscriber, user: user)
    }

    public func signOut(app: AppConfig, subscriber: any ChannelSubscriber, userID: String) {
        local.signOut(app: app, subscriber: subscriber, userID: userID)
    }

    public func publish(app: AppConfig, events: [HubEvent]) {
        guard !events.isEmpty else { return }
        local.publish(app: app, events: events)
        let travelling: [ClusterEvent] = state.withLock { s in
            events.compactMap { event in
                let cache = LocalChannelHub.mayBeCacheChannel(event.channel) && (PusherChannel(event.channel)?.isCache ?? false)
                guard cache || s.replica.remoteSubscriptions(ClusterChannelKey(app: app.id, channel: event.channel)) > 0 else { return nil }
                return ClusterEvent(
                    channel: event.channel, event: event.event, frame: event.frame, excluding: event.excluding,
                    cacheData: cache ? JSONWriter.serialize(event.data) : nil)
            }
        }
        guard !travelling.isEmpty else { return }
        send(.events(app: app.id, travelling))
        storeCached(app: app.id, travelling)
    }

    public func hasSubscribers(app: AppConfig, channels: [String]) -> [Bool] {
        let local = self.local.hasSubscribers(app: app, channels: channels)
        return state.withLock { s in
            zip(channels, local).map { channel, here in
                here || s.replica.remoteSubscriptions(ClusterChannelKey(app: app.id, channel: channel)) > 0
            }
        }
    }

    public func terminateUser(app: AppConfig, userID: String) {
        local.terminateUser(app: app, userID: userID)
        send(.terminate(app: app.id, user: userID))
    }

    /// Revocations are per node: the grants they follow live on the node that issued them, and
    /// the chat service tells every node of an access that ended (`announce`).
    public func revokeSubscriptions(app: AppConfig, _ revocations: [SubscriptionRevocation]) {
        local.revokeSubscriptions(app: app, revocations)
    }

    public func snapshot(app: AppConfig, channel: String) -> ChannelSnapshot {
        var snapshot = local.snapshot(app: app, channel: channel)
        let remote = state.withLock { $0.replica.remoteSubscriptions(ClusterChannelKey(app: app.id, channel: channel)) }
        snapshot.subscriptionCount += remote
        snapshot.occupied = snapshot.subscriptionCount > 0
        return snapshot
    }

    public func occupiedChannels(app: AppConfig, prefix: String?) -> [String] {
        var names = Set(local.occupiedChannels(app: app, prefix: prefix))
        state.withLock { s in
            for key in s.replica.totals.keys where key.app == app.id && (prefix.map { key.channel.hasPrefix($0) } ?? true) {
                names.insert(key.channel)
            }
        }
        return names.sorted()
    }

    public func presenceUsers(app: AppConfig, channel: String) -> [String] {
        local.presenceUsers(app: app, channel: channel)
    }

    // MARK: notices

    /// Calls `handler` (on the bus's thread) for every notice other nodes send on `topic`.
    public func setNoticeHandler(topic: String, _ handler: @escaping @Sendable ([UInt8]) -> Void) {
        state.withLock { $0.noticeHandlers[topic] = handler }
    }

    /// Sends a notice to every other node (not to this one).
    public func announce(topic: String, payload: [UInt8]) {
        send(.notice(topic: topic, payload: payload))
    }

    // MARK: online users

    /// Calls `handler` for every user that comes online or goes offline cluster-wide (first
    /// signed-in connection anywhere, last one anywhere closed), on every node, in the bus's
    /// order. `announce` is true on one node only: the one whose own change made the
    /// transition (it hears its own change back from the bus in the order every node sees,
    /// or, after an outage, finds it in its own share), or, for a node that died, the live
    /// node with the lowest id.
    public func setOnlineHandler(_ handler: OnlineHandler?) {
        state.withLock { $0.onlineHandler = handler }
    }

    /// Records whether this node has a signed-in connection of `user` (its first one came or
    /// its last one left); the other nodes hear it as part of this node's share.
    public func setUserSignedIn(app: String, user: String, _ signedIn: Bool) {
        state.withLock { s in
            guard let update = s.share.userSignedIn(app: app, user: user, signedIn) else { return }
            send(.share(update))
        }
    }

    /// Whether some node has reported a signed-in connection of the user on the bus.
    public func isOnline(app: String, user: String) -> Bool {
        state.withLock { $0.online.isOnline(app: app, user: user) }
    }

    /// Filters the events other nodes send before this node's subscribers get them.
    public func setEventFilter(_ filter: EventFilter?) {
        state.withLock { $0.eventFilter = filter }
    }

    /// Calls `handler` (on the bus's thread) each time the bus connects (`true`: the first
    /// time, and again after an outage) or is lost (`false`).
    public func addConnectionHandler(_ handler: @escaping @Sendable (_ connected: Bool) -> Void) {
        state.withLock { $0.connectionHandlers.append(handler) }
    }

    private func connectionChanged(_ connected: Bool) {
        let (handlers, transitions) = state.withLock { s in
            guard connected else { return (s.connectionHandlers, [(ClusterOnlineLedger.Transition, Bool)]()) }
            // Store the share at once (a restarted Redis is empty); our own changes sent
            // while the bus was down never came back, so take them from the share.
            s.lastStored = .min
            s.reconnectedAt = clock()
            let transitions = s.online.replace(node: nodeID, with: s.share.signedInUsers)
            return (s.connectionHandlers, transitions.map { ($0, true) })
        }
        if connected { tick() }
        reportOnline(transitions)
        for handler in handlers { handler(connected) }
    }

    /// Our own signed-in changes as the bus returned them.
    private func ownSignedIn(_ update: ClusterShareUpdate) -> [(ClusterOnlineLedger.Transition, Bool)] {
        state.withLock { s in
            update.changes.compactMap { change in
                guard case .member(let app, let channel, let user, let info) = change, channel == ClusterShare.signedInChannel else {
                    return nil
                }
                return s.online.apply(node: nodeID, app: app, user: user, online: info != nil).map { ($0, true) }
            }
        }
    }

    /// Applies the signed-in changes found by reading the stored shares. Only a dead node's
    /// are announced here (by the lowest live node): a live node's change read from its share
    /// may still be on its way on the bus, and that node announces its own changes.
    private func healOnline(
        _ s: inout State, _ changes: [ClusterReplica.MemberChange], live: Set<String>
    )
        -> [(ClusterOnlineLedger.Transition, Bool)]
    {
        let announcer = announcesHealedChanges(s)
        return Self.signedIn(changes).compactMap { change in
            s.online.apply(node: change.node, app: change.app, user: change.user, online: change.info != nil)
                .map { ($0, announcer && !live.contains(change.node)) }
        }
    }

    /// Whether this node is the live node with the lowest id.
    private func announcesHealedChanges(_ s: State) -> Bool {
        s.replica.nodes.keys.allSatisfy { $0 > nodeID }
    }

    private static func signedIn(_ changes: [ClusterReplica.MemberChange]) -> [ClusterReplica.MemberChange] {
        changes.filter { $0.channel == ClusterShare.signedInChannel }
    }

    private func reportOnline(_ transitions: [(ClusterOnlineLedger.Transition, Bool)]) {
        guard !transitions.isEmpty, let handler = state.withLock({ $0.onlineHandler }) else { return }
        for (transition, announce) in transitions { handler(transition.app, transition.user, transition.online, announce) }
    }

    // MARK: share

    public func localChannelChanged(app: String, channel: String, subscriptions: Int, members: [String: JSONValue]?) {
        // Under the local hub's lock: deltas leave in the order the directory made them.
        state.withLock { s in
            let wasOccupied = s.share.counts[ClusterChannelKey(app: app, channel: channel)] != nil
            guard let update = s.share.channelChanged(app: app, channel: channel, subscriptions: subscriptions, members: members) else {
                return
            }
            send(.share(update))
            let claims = Self.claims(of: update, app: app, channel: channel, wasOccupied: wasOccupied, isOccupied: subscriptions > 0)
            // Still under the lock: claims reach the store in the order the directory made them.
            guard !claims.isEmpty else { return }
            let key = ClusterChannelKey(app: app, channel: channel)
            let number = ledger.withLock { $0.send(key) }
            transport.claim(node: nodeID, claims) { [weak self] fired in self?.claimAnswered(number, about: key, fired: fired) }
        }
    }

    /// A subscription's answer waits until the store has this node's latest claim about the
    /// channel (see `ClusterClaimLedger`): a client that saw `subscription_succeeded` is
    /// counted by the store before anything it does next.
    public func answerAfterClaims(app: String, channel: String, _ answer: @escaping @Sendable () -> Void) -> Bool {
        ledger.withLock { $0.wait(for: ClusterChannelKey(app: app, channel: channel), answer) }
    }

    private func claimAnswered(_ number: UInt64, about key: ClusterChannelKey, fired: [ClusterClaim]) {
        let answers = ledger.withLock { $0.answered(number, about: key) }
        fire(fired)
        for answer in answers { answer() }
    }

    /// This node's arrivals and departures in a share delta: the channel's first or last
    /// subscription here, a member's first or last connection here.
    static func claims(of update: ClusterShareUpdate, app: String, channel: String, wasOccupied: Bool, isOccupied: Bool) -> [ClusterClaim] {
        var claims: [ClusterClaim] = []
        if !wasOccupied && isOccupied { claims.append(ClusterClaim(app: app, channel: channel, joined: true)) }
        for case .member(_, _, let user, let info) in update.changes {
            claims.append(ClusterClaim(app: app, channel: channel, user: user, joined: info != nil))
        }
        if wasOccupied && !isOccupied { claims.append(ClusterClaim(app: app, channel: channel, joined: false)) }
        return claims
    }

    /// Queues the webhooks of the cluster's changes this node was the one to make.
    private func fire(_ claims: [ClusterClaim]) {
        guard let sink = local.webhooks else { return }
        for claim in claims {
            guard let app = apps.app(id: claim.app) else { continue }
            sink.enqueue(app: app, event: claim.webhook)
        }
    }

    /// Periodic work, about once a second: store this node's share, and every sweep interval
    /// read every node's (dropping dead nodes' members, healing missed deltas).
    public func tick() {
        let now = clock()
        let connections = local.connectionCounts()
        let (snapshot, sweep): ([UInt8]?, Bool) = state.withLock { s in
            // Connection counts travel once a second, not per connection: the limit's lag.
            if let update = s.share.connectionsChanged(connections) { send(.share(update)) }
            var snapshot: [UInt8]?
            if s.lastStored == .min || now - s.lastStored >= timings.storeInterval {
                s.lastStored = now
                snapshot = ClusterEnvelope(node: nodeID, boot: boot, message: .share(s.share.snapshot())).encoded()
            }
            let sweep = s.lastSwept == .min || now - s.lastSwept >= timings.sweepInterval
            if sweep { s.lastSwept = now }
            return (snapshot, sweep)
        }
        if let snapshot { transport.storeShare(node: nodeID, snapshot, ttlMilliseconds: timings.shareLifetime) }
        if sweep { transport.loadShares { [weak self] shares in self?.applyShares(shares) } }
    }

    private func applyShares(_ shares: [String: [UInt8]]?) {
        guard let shares else { return }
        var live: [String: (boot: UInt64, update: ClusterShareUpdate)] = [:]
        for (node, bytes) in shares where node != nodeID {
            guard let envelope = ClusterEnvelope(decoding: bytes), envelope.node == node,
                case .share(let update) = envelope.message
            else {
                statistics.malformed.add(1, ordering: .relaxed)
                continue
            }
            live[node] = (envelope.boot, update)
        }
        let now = clock()
        let (changes, transitions, counts) = state.withLock { s in
            let settled = s.reconnectedAt.map { now - $0 >= timings.shareLifetime } ?? true
            let changes = s.replica.applyLive(live, dropMissing: settled)
            return (changes, healOnline(&s, changes, live: Set(live.keys)), s.replica.takeChangedTotals())
        }
        applyMemberChanges(changes)
        applyRemoteCounts(counts)
        reportOnline(transitions)
    }

    /// Hands the other nodes' new subscription totals to the local hub (cluster-wide
    /// `subscription_count` for this node's subscribers).
    private func applyRemoteCounts(_ counts: [ClusterChannelKey: Int]) {
        guard !counts.isEmpty else { return }
        var byApp: [String: [(channel: String, count: Int)]] = [:]
        for (key, count) in counts { byApp[key.app, default: []].append((key.channel, count)) }
        for (appID, list) in byApp {
            guard let app = apps.app(id: appID) else { continue }
            local.applyRemoteCounts(app: app, list)
        }
    }

    // MARK: cache channels

    /// Keeps each cache channel's last event in the store too, so a node that starts later
    /// replays the cluster's last event.
    private func storeCached(app: String, _ events: [ClusterEvent]) {
        for event in events where event.cacheData != nil {
            let value = ClusterEnvelope(node: nodeID, boot: boot, message: .events(app: app, [event])).encoded()
            transport.storeCache(key: "\(app):\(event.channel)", value, ttlMilliseconds: ChannelDirectory.cacheLifetime)
        }
    }

    /// Remembers the cache channel events stored before this node started (without delivering them).
    private func rememberCaches(_ values: [[UInt8]]) {
        for value in values {
            guard let envelope = ClusterEnvelope(decoding: value), case .events(let appID, let events) = envelope.message,
                let app = apps.app(id: appID)
            else { continue }
            local.rememberCache(
                app: app,
                events.map { event in
                    HubEvent(
                        channel: event.channel, event: event.event,
                        data: event.cacheData.flatMap { try? JSONParser.parse($0) } ?? .null, frame: event.frame, excluding: nil)
                })
        }
    }

    // MARK: bus

    private func send(_ message: ClusterMessage) {
        let payload = ClusterEnvelope(node: nodeID, boot: boot, message: message).encoded()
        statistics.messagesOut.add(1, ordering: .relaxed)
        statistics.bytesOut.add(payload.count, ordering: .relaxed)
        transport.broadcast(payload)
    }

    /// One bus message, on the bus's thread, in the order its sender sent them.
    func receive(_ payload: [UInt8]) {
        guard let envelope = ClusterEnvelope(decoding: payload) else {
            statistics.malformed.add(1, ordering: .relaxed)
            return
        }
        guard envelope.node != nodeID || envelope.boot != boot else {
            // Our own, already delivered here; its signed-in changes take their place in the bus's order.
            if case .share(let update) = envelope.message { reportOnline(ownSignedIn(update)) }
            return
        }
        statistics.messagesIn.add(1, ordering: .relaxed)
        statistics.bytesIn.add(payload.count, ordering: .relaxed)
        switch envelope.message {
        case .events(let appID, let events):
            guard let app = apps.app(id: appID) else { return }
            let filter = state.withLock { $0.eventFilter }
            local.publish(
                app: app,
                events: events.filter { filter?(appID, $0) ?? true }.map { event in
                    let data = event.cacheData.flatMap { try? JSONParser.parse($0) } ?? .null
                    return HubEvent(channel: event.channel, event: event.event, data: data, frame: event.frame, excluding: event.excluding)
                })
        case .share(let update):
            let (changes, transitions, counts) = state.withLock { s in
                let changes = s.replica.apply(node: envelope.node, boot: envelope.boot, update)
                return (
                    changes,
                    Self.signedIn(changes).compactMap { change in
                        s.online.apply(node: change.node, app: change.app, user: change.user, online: change.info != nil)
                            .map { ($0, false) }  // the sender announces, on its own echo
                    },
                    s.replica.takeChangedTotals()
                )
            }
            applyMemberChanges(changes)
            applyRemoteCounts(counts)
            reportOnline(transitions)
        case .terminate(let appID, let user):
            guard let app = apps.app(id: appID) else { return }
            local.terminateUser(app: app, userID: user)
        case .notice(let topic, let payload):
            state.withLock { $0.noticeHandlers[topic] }?(payload)
        }
    }

    private func applyMemberChanges(_ changes: [ClusterReplica.MemberChange]) {
        var byApp: [String: [(channel: String, node: String, user: String, info: JSONValue?)]] = [:]
        for change in changes where change.channel != ClusterShare.signedInChannel {
            let info = change.info.map { (try? JSONParser.parse($0)) ?? .null }
            byApp[change.app, default: []].append((change.channel, change.node, change.user, info))
        }
        for (appID, list) in byApp {
            guard let app = apps.app(id: appID) else { continue }
            local.applyRemoteMembers(app: app, list)
        }
    }
}
