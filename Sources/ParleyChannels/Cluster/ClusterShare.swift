import ParleyWire

/// This node's share of the shared state: its subscription count per channel and the
/// presence members with a connection here. A value; the hub keeps it under its lock and
/// turns each change into a numbered `ClusterShareUpdate` for the other nodes.
struct ClusterShare: Sendable {
    private(set) var counts: [ClusterChannelKey: Int] = [:]
    private(set) var members: [ClusterChannelKey: [String: [UInt8]]] = [:]
    /// Open connections per app, as last shared.
    private(set) var connections: [String: Int] = [:]
    /// The number of the last change.
    private(set) var seq: UInt64 = 0

    /// Records a channel's local state after a change and returns the delta (nil: nothing
    /// the other nodes see changed). `members` is nil for channels without presence.
    mutating func channelChanged(app: String, channel: String, subscriptions: Int, members now: [String: JSONValue]?) -> ClusterShareUpdate?
    {
        let key = ClusterChannelKey(app: app, channel: channel)
        var changes: [ClusterShareChange] = []
        if (counts[key] ?? 0) != subscriptions {
            counts[key] = subscriptions > 0 ? subscriptions : nil
            changes.append(.count(app: app, channel: channel, subscriptions))
        }
        let before = members[key] ?? [:]
        var after: [String: [UInt8]] = [:]
        for (user, info) in now ?? [:] {
            after[user] = before[user] ?? JSONWriter.serialize(info)
        }
        for user in before.keys.sorted() where after[user] == nil {
            changes.append(.member(app: app, channel: channel, user: user, info: nil))
        }
        for user in after.keys.sorted() where before[user] == nil {
            changes.append(.member(app: app, channel: channel, user: user, info: after[user]))
        }
        members[key] = after.isEmpty ? nil : after
        guard !changes.isEmpty else { return nil }
        seq += 1
        return ClusterShareUpdate(seq: seq, full: false, changes: changes)
    }

    /// Records the connection counts per app (sampled once a second) and returns the delta
    /// (nil: unchanged since the last one).
    mutating func connectionsChanged(_ now: [String: Int]) -> ClusterShareUpdate? {
        var changes: [ClusterShareChange] = []
        for app in Set(now.keys).union(connections.keys).sorted() where (now[app] ?? 0) != (connections[app] ?? 0) {
            changes.append(.connections(app: app, now[app] ?? 0))
        }
        guard !changes.isEmpty else { return nil }
        connections = now.filter { $0.value > 0 }
        seq += 1
        return ClusterShareUpdate(seq: seq, full: false, changes: changes)
    }

    /// The pseudo-channel whose members are the users signed in on the node (a space keeps
    /// it apart from every Pusher channel name); nodes that predate it ignore it.
    static let signedInChannel = "parley signed-in"

    /// Records whether the node has a signed-in connection of `user`; the delta, or nil when
    /// that was already known.
    mutating func userSignedIn(app: String, user: String, _ signedIn: Bool) -> ClusterShareUpdate? {
        let key = ClusterChannelKey(app: app, channel: Self.signedInChannel)
        guard (members[key]?[user] != nil) != signedIn else { return nil }
        let info: [UInt8]? = signedIn ? Array("{}".utf8) : nil
        members[key, default: [:]][user] = info
        if members[key]?.isEmpty ?? false { members[key] = nil }
        seq += 1
        return ClusterShareUpdate(
            seq: seq, full: false, changes: [.member(app: app, channel: Self.signedInChannel, user: user, info: info)])
    }

    /// The users signed in on the node.
    var signedInUsers: Set<ClusterOnlineLedger.User> {
        var users: Set<ClusterOnlineLedger.User> = []
        for (key, list) in members where key.channel == Self.signedInChannel {
            for user in list.keys { users.insert(ClusterOnlineLedger.User(app: key.app, user: user)) }
        }
        return users
    }

    /// The whole share as one update numbered with the last change.
    func snapshot() -> ClusterShareUpdate {
        var changes: [ClusterShareChange] = []
        for (key, count) in counts { changes.append(.count(app: key.app, channel: key.channel, count)) }
        for (app, count) in connections { changes.append(.connections(app: app, count)) }
        for (key, users) in members {
            for (user, info) in users { changes.append(.member(app: key.app, channel: key.channel, user: user, info: info)) }
        }
        return ClusterShareUpdate(seq: seq, full: true, changes: changes)
    }
}
