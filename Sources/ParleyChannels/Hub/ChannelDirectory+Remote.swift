import ParleyWire

/// Presence members connected to other nodes (the cluster bus reports them), so member lists,
/// counts and member_added/member_removed are the cluster's: a user is one member however many
/// nodes they are connected to, added when their first connection anywhere joins and removed
/// when their last one anywhere leaves.
extension ChannelDirectory {
    /// Records that `user` has (`info` non-nil) or no longer has a connection to a presence
    /// channel on `node`; returns member_added or member_removed for the local subscribers
    /// when the user's cluster-wide membership changed.
    public mutating func applyRemoteMember(app: String, channel: String, node: String, user: String, info: JSONValue?) -> [DirectoryEffect]
    {
        let local = apps[app]?.channels[channel]?.members[user] != nil
        let before = apps[app]?.remote[channel]?[user] != nil
        if let info {
            apps[app, default: App()].remote[channel, default: [:]][user, default: [:]][node] = info
        } else if before {
            apps[app]?.remote[channel]?[user]?[node] = nil
            if apps[app]?.remote[channel]?[user]?.isEmpty ?? false { apps[app]?.remote[channel]?[user] = nil }
            if apps[app]?.remote[channel]?.isEmpty ?? false { apps[app]?.remote[channel] = nil }
        }
        let after = apps[app]?.remote[channel]?[user] != nil
        guard !local, before != after else { return [] }
        let frame =
            after
            ? PusherFrame.memberAdded(channel: channel, userID: user, userInfo: info ?? .null)
            : PusherFrame.memberRemoved(channel: channel, userID: user)
        return [.broadcast(app: app, channel: channel, frame: frame, excluding: nil)]
    }

    /// Records the other nodes' subscriptions to a channel; when the total changed and the
    /// channel has subscribers here, they get the cluster's `subscription_count` (the webhook
    /// is the changing node's to send).
    public mutating func applyRemoteCount(app: AppConfig, channel: String, count: Int, now: Int64) -> [DirectoryEffect] {
        guard (apps[app.id]?.remoteCounts[channel] ?? 0) != count else { return [] }
        apps[app.id, default: App()].remoteCounts[channel] = count > 0 ? count : nil
        guard apps[app.id]?.channels[channel] != nil, let kind = PusherChannel(channel)?.kind else { return [] }
        return Self.countChanged(
            app: app, name: channel, channel: &apps[app.id, default: App()].channels[channel, default: Channel()], kind: kind,
            elsewhere: max(0, count), here: false, now: now)
    }

    /// Presence members known only through other nodes.
    static func remoteOnlyCount(_ state: App, channel: String) -> Int {
        guard let remote = state.remote[channel] else { return 0 }
        let local = state.channels[channel]?.members ?? [:]
        return remote.keys.reduce(0) { $0 + (local[$1] == nil ? 1 : 0) }
    }

    /// A channel's subscriptions on this node and its presence members connected here (nil
    /// for other channels): this node's share of the cluster's state.
    public func localShare(app: String, channel name: String) -> (subscriptions: Int, members: [String: JSONValue]?) {
        let channel = apps[app]?.channels[name]
        guard PusherChannel(name)?.kind == .presence else { return (channel?.sockets.count ?? 0, nil) }
        return (channel?.sockets.count ?? 0, channel?.members.mapValues(\.info) ?? [:])
    }

    /// Members known only through other nodes, by user id (stable order), with any node's info.
    static func remoteOnly(_ state: App, channel: String) -> [(user: String, info: JSONValue)] {
        guard let remote = state.remote[channel] else { return [] }
        let local = state.channels[channel]?.members ?? [:]
        return remote.keys.sorted().compactMap { user in
            guard local[user] == nil, let nodes = remote[user], let first = nodes.keys.min() else { return nil }
            return (user, nodes[first]!)
        }
    }
}
