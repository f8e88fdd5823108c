import ParleyWire

/// The authoritative membership of every channel of every app: who is subscribed, presence
/// members, signed-in users, watchlists, cached events and subscription counts.
///
/// A pure value: methods take the clock and return `DirectoryEffect`s (member_added,
/// subscription_count, watchlist events, webhooks) for the owner to carry out. The hub keeps
/// exactly one, so presence and counts are global per app whichever loop a socket lives on.
public struct ChannelDirectory: Sendable {
    /// How long a cache channel remembers its last event, in milliseconds.
    public static let cacheLifetime: Int64 = 30 * 60 * 1000
    /// Above this many subscribers, subscription_count is sent at most every 30 s.
    public static let countThrottleThreshold = 100
    /// The minimum interval of throttled subscription_count updates, in milliseconds.
    public static let countThrottleInterval: Int64 = 30 * 1000

    struct Member {
        var info: JSONValue
        var connections: Int
    }

    struct Cached {
        var frame: [UInt8]
        var data: JSONValue
        var storedAt: Int64
    }

    struct Channel {
        /// socket id → presence user id (nil on non-presence channels).
        var sockets: [String: String?] = [:]
        var members: [String: Member] = [:]
        var memberOrder: [String] = []
        var lastCountSentAt: Int64 = .min
        var countDirty = false
        /// A throttled count is owed for a change of this node's own (which fires the webhook).
        var countDirtyHere = false
    }

    struct App {
        var channels: [String: Channel] = [:]
        var cache: [String: Cached] = [:]
        var connections = 0
        /// user id → its signed-in sockets.
        var users: [String: Set<String>] = [:]
        /// watched user id → watching sockets.
        var watchers: [String: Set<String>] = [:]
        /// watching socket → the ids it watches.
        var watchlists: [String: [String]] = [:]
        /// Presence members connected to other nodes: channel → user → node → user info.
        var remote: [String: [String: [String: JSONValue]]] = [:]
        /// Subscriptions on other nodes per channel (the cluster's `subscription_count`).
        var remoteCounts: [String: Int] = [:]
    }

    var apps: [String: App] = [:]

    /// Creates an empty directory.
    public init() {}

    // MARK: connections

    /// Counts a new connection; false when the app is at its connection limit, counting
    /// `elsewhere` connections open on other nodes.
    public mutating func connect(app: AppConfig, elsewhere: Int = 0) -> Bool {
        let current = apps[app.id]?.connections ?? 0
        if let limit = app.limits.maxConnections, current + elsewhere >= limit { return false }
        apps[app.id, default: App()].connections = current + 1
        return true
    }

    /// Forgets a connection counted by `connect`.
    public mutating func disconnect(app: AppConfig) {
        guard let current = apps[app.id]?.connections else { return }
        apps[app.id]?.connections = max(0, current - 1)
    }

    /// Connections of an app.
    public func connectionCount(app: String) -> Int { apps[app]?.connections ?? 0 }

    // MARK: subscriptions

    /// Subscribes a socket. Idempotent: subscribing again answers the same way without effects.
    public mutating func subscribe(
        app: AppConfig, socketID: String, request: PusherSubscribeRequest, now: Int64
    )
        -> (outcome: PusherSubscribeOutcome, effects: [DirectoryEffect])
    {
        // Mutate in place: copying an App or Channel out would copy its dictionaries (COW).
        let result = Self.subscribe(&apps[app.id, default: App()], app: app, socketID: socketID, request: request, now: now)
        if apps[app.id]?.channels[request.channel.name]?.sockets.isEmpty ?? false {
            apps[app.id]?.channels[request.channel.name] = nil
        }
        return result
    }

    private static func subscribe(
        _ state: inout App, app: AppConfig, socketID: String, request: PusherSubscribeRequest, now: Int64
    )
        -> (outcome: PusherSubscribeOutcome, effects: [DirectoryEffect])
    {
        let name = request.channel.name
        var effects: [DirectoryEffect] = []
        let isNewSocket = state.channels[name]?.sockets[socketID] == nil
        if isNewSocket {
            if let member = request.member {
                if state.channels[name]?.members[member.userID] != nil {
                    state.channels[name]?.members[member.userID]?.connections += 1
                } else {
                    // Members through other nodes count too (as the bus last reported them); a
                    // user already present through one is no new member.
                    let present = (state.channels[name]?.members.count ?? 0) + Self.remoteOnlyCount(state, channel: name)
                    guard state.remote[name]?[member.userID] != nil || present < app.limits.maxPresenceMembers else {
                        return (
                            .refused(
                                code: PusherErrorCode.overCapacity.rawValue,
                                message: "Presence channel \(name) is full (\(app.limits.maxPresenceMembers) members)", status: 403), []
                        )
                    }
                    state.channels[name, default: Channel()].members[member.userID] = Member(info: member.userInfo, connections: 1)
                    state.channels[name, default: Channel()].memberOrder.append(member.userID)
                    // A user already present through another node is no news to anyone.
                    if state.remote[name]?[member.userID] == nil {
                        effects.append(
                            .broadcast(
                                app: app.id, channel: name,
                                frame: PusherFrame.memberAdded(channel: name, userID: member.userID, userInfo: member.userInfo),
                                excluding: socketID))
                        effects.append(.webhook(app: app.id, WebhookEvent(.memberAdded, channel: name, userID: member.userID)))
                    }
                }
            }
            state.channels[name, default: Channel()].sockets[socketID] = .some(request.member?.userID)
            if state.channels[name]?.sockets.count == 1 {
                effects.append(.webhook(app: app.id, WebhookEvent(.channelOccupied, channel: name)))
            }
        }
        var members: [PresenceMember]?
        if request.channel.kind == .presence, let channel = state.channels[name] {
            members = channel.memberOrder.map { PresenceMember(userID: $0, userInfo: channel.members[$0]?.info ?? .null) }
            members! += Self.remoteOnly(state, channel: name).map { PresenceMember(userID: $0.user, userInfo: $0.info) }
        }
        var cache = PusherSubscribeOutcome.CacheReplay.none
        if request.channel.isCache {
            if let cached = state.cache[name], now - cached.storedAt < cacheLifetime {
                cache = .hit(cached.frame)
            } else {
                state.cache[name] = nil
                cache = .miss
                effects.append(.webhook(app: app.id, WebhookEvent(.cacheMiss, channel: name)))
            }
        }
        if isNewSocket {
            let elsewhere = state.remoteCounts[name] ?? 0
            effects += countChanged(
                app: app, name: name, channel: &state.channels[name, default: Channel()], kind: request.channel.kind,
                elsewhere: elsewhere, here: true, now: now)
        }
        return (.succeeded(members: members, cache: cache), effects)
    }

    /// Removes a socket from a channel; member_removed when its user's last connection left.
    public mutating func unsubscribe(app: AppConfig, socketID: String, channel name: String, now: Int64) -> [DirectoryEffect] {
        guard let removed = apps[app.id]?.channels[name]?.sockets.removeValue(forKey: socketID) else { return [] }
        var effects: [DirectoryEffect] = []
        if let userID = removed, let member = apps[app.id]?.channels[name]?.members[userID] {
            if member.connections > 1 {
                apps[app.id]?.channels[name]?.members[userID]?.connections -= 1
            } else {
                apps[app.id]?.channels[name]?.members[userID] = nil
                apps[app.id]?.channels[name]?.memberOrder.removeAll { $0 == userID }
                // Still present through another node: nobody sees them leave.
                if apps[app.id]?.remote[name]?[userID] == nil {
                    effects.append(
                        .broadcast(
                            app: app.id, channel: name, frame: PusherFrame.memberRemoved(channel: name, userID: userID), excluding: nil))
                    effects.append(.webhook(app: app.id, WebhookEvent(.memberRemoved, channel: name, userID: userID)))
                }
            }
        }
        if apps[app.id]?.channels[name]?.sockets.isEmpty ?? true {
            apps[app.id]?.channels[name] = nil
            effects.append(.webhook(app: app.id, WebhookEvent(.channelVacated, channel: name)))
            return effects
        }
        let kind = PusherChannel(name)?.kind ?? .public
        let elsewhere = apps[app.id]?.remoteCounts[name] ?? 0
        effects += Self.countChanged(
            app: app, name: name, channel: &apps[app.id, default: App()].channels[name, default: Channel()], kind: kind,
            elsewhere: elsewhere, here: true, now: now)
        return effects
    }

    /// subscription_count after a change here (`here`: this node's webhook to send) or on
    /// other nodes, which have `elsewhere` subscriptions; throttled above 100 subscribers.
    static func countChanged(
        app: AppConfig, name: String, channel: inout Channel, kind: PusherChannel.Kind, elsewhere: Int, here: Bool, now: Int64
    ) -> [DirectoryEffect] {
        guard app.subscriptionCount, kind != .presence else { return [] }
        let count = channel.sockets.count + elsewhere
        if count > countThrottleThreshold, now - channel.lastCountSentAt < countThrottleInterval {
            channel.countDirty = true
            channel.countDirtyHere = channel.countDirtyHere || here
            return []
        }
        channel.lastCountSentAt = now
        channel.countDirty = false
        channel.countDirtyHere = false
        return countEffects(app: app.id, name: name, count: count, webhook: here)
    }

    /// The event to this node's subscribers and, for a change made here, the webhook: a change
    /// on another node is that node's to report, so the webhook fires once for the cluster.
    static func countEffects(app: String, name: String, count: Int, webhook: Bool = true) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = [
            .broadcast(app: app, channel: name, frame: PusherFrame.subscriptionCount(channel: name, count: count), excluding: nil)
        ]
        if webhook { effects.append(.webhook(app: app, WebhookEvent(.subscriptionCount, channel: name, subscriptionCount: count))) }
        return effects
    }

    /// Sends throttled subscription counts whose interval has passed.
    public mutating func tick(now: Int64) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = []
        for (appID, state) in apps {
            for (name, channel) in state.channels where channel.countDirty && now - channel.lastCountSentAt >= Self.countThrottleInterval {
                apps[appID]?.channels[name]?.countDirty = false
                apps[appID]?.channels[name]?.countDirtyHere = false
                apps[appID]?.channels[name]?.lastCountSentAt = now
                let count = channel.sockets.count + (state.remoteCounts[name] ?? 0)
                effects += Self.countEffects(app: appID, name: name, count: count, webhook: channel.countDirtyHere)
            }
            for (name, cached) in state.cache where now - cached.storedAt >= Self.cacheLifetime {
                apps[appID]?.cache[name] = nil
            }
        }
        return effects
    }

    // MARK: cache channels

    /// Remembers the last event published on a cache channel.
    public mutating func storeCache(app: String, channel: String, frame: [UInt8], data: JSONValue, now: Int64) {
        apps[app, default: App()].cache[channel] = Cached(frame: frame, data: data, storedAt: now)
    }

    // MARK: queries

    /// What the HTTP API reports about a channel.
    public func snapshot(app: String, channel name: String, now: Int64) -> ChannelSnapshot {
        let channel = apps[app]?.channels[name]
        let isPresence = PusherChannel(name)?.kind == .presence
        var cache: (data: JSONValue, ttl: Int)?
        if let cached = apps[app]?.cache[name], now - cached.storedAt < Self.cacheLifetime {
            cache = (cached.data, Int((Self.cacheLifetime - (now - cached.storedAt)) / 1000))
        }
        return ChannelSnapshot(
            occupied: !(channel?.sockets.isEmpty ?? true), subscriptionCount: channel?.sockets.count ?? 0,
            userCount: isPresence ? presenceUsers(app: app, channel: name).count : nil, cache: cache)
    }

    /// Whether a socket is subscribed to a channel.
    public func isSubscribed(app: String, socketID: String, channel name: String) -> Bool {
        apps[app]?.channels[name]?.sockets[socketID] != nil
    }

    /// The `subscription_count` event a subscriber of the channel gets now: the count here and
    /// on other nodes; nil where the app sends none (not enabled, or a presence channel).
    public func subscriptionCountFrame(app: AppConfig, channel: PusherChannel) -> [UInt8]? {
        guard app.subscriptionCount, channel.kind != .presence, let state = apps[app.id] else { return nil }
        let count = (state.channels[channel.name]?.sockets.count ?? 0) + (state.remoteCounts[channel.name] ?? 0)
        return PusherFrame.subscriptionCount(channel: channel.name, count: count)
    }

    /// Whether a channel has at least one subscribed socket.
    public func hasSubscribers(app: String, channel name: String) -> Bool {
        !(apps[app]?.channels[name]?.sockets.isEmpty ?? true)
    }

    /// Occupied channels of an app whose names start with `prefix`.
    public func occupiedChannels(app: String, prefix: String?) -> [String] {
        guard let channels = apps[app]?.channels else { return [] }
        return channels.keys.filter { prefix == nil || $0.hasPrefix(prefix!) }.sorted()
    }

    /// The user ids of a presence channel, in join order.
    public func presenceUsers(app: String, channel: String) -> [String] {
        guard let state = apps[app] else { return [] }
        return (state.channels[channel]?.memberOrder ?? []) + Self.remoteOnly(state, channel: channel).map(\.user)
    }

    /// The sockets subscribed to a channel.
    public func subscribers(app: String, channel name: String) -> [String] {
        guard let sockets = apps[app]?.channels[name]?.sockets else { return [] }
        return Array(sockets.keys)
    }

    /// The sockets signed in as a user.
    public func sockets(app: String, userID: String) -> [String] {
        Array(apps[app]?.users[userID] ?? [])
    }
}
