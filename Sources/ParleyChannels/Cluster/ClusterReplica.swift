/// What this node knows of every other node's share, built from their deltas on the bus and
/// their snapshots in Redis. A value: applying an update returns the presence changes the
/// local directory must hear (a member that appeared or disappeared on a node).
struct ClusterReplica: Sendable {
    /// A presence change on another node: `info` nil when the member left it.
    struct MemberChange: Sendable, Equatable {
        var app: String
        var channel: String
        var node: String
        var user: String
        var info: [UInt8]?
    }

    struct Node: Sendable {
        var boot: UInt64
        var seq: UInt64 = 0
        /// A delta was missed: the next snapshot at or past `seq` replaces the state.
        var gap = false
        var counts: [ClusterChannelKey: Int] = [:]
        var members: [ClusterChannelKey: [String: [UInt8]]] = [:]
        var connections: [String: Int] = [:]
    }

    private(set) var nodes: [String: Node] = [:]
    /// Subscriptions per channel summed over the other nodes.
    private(set) var totals: [ClusterChannelKey: Int] = [:]
    /// Connections per app summed over the other nodes.
    private(set) var connectionTotals: [String: Int] = [:]
    /// The channels whose totals changed since `takeChangedTotals`, with their new totals.
    private var changedTotals: [ClusterChannelKey: Int] = [:]

    /// Applies a delta or snapshot a node sent on the bus.
    mutating func apply(node id: String, boot: UInt64, _ update: ClusterShareUpdate) -> [MemberChange] {
        var changes: [MemberChange] = []
        if let known = nodes[id], known.boot != boot {
            changes += replace(id, with: nil)  // restarted under the same id: its old share is gone
        }
        var node = nodes[id] ?? Node(boot: boot)
        if update.full {
            guard node.seq == 0 || update.seq > node.seq || (node.gap && update.seq >= node.seq) else { return changes }
            return changes + replace(id, with: (boot, update))
        }
        guard update.seq > node.seq else { return changes }  // already in a snapshot applied
        node.gap = node.gap || update.seq != node.seq + 1
        node.seq = update.seq
        for change in update.changes {
            switch change {
            case .count(let app, let channel, let count):
                let key = ClusterChannelKey(app: app, channel: channel)
                adjustTotal(key, by: count - (node.counts[key] ?? 0))
                node.counts[key] = count > 0 ? count : nil
            case .connections(let app, let count):
                adjustConnections(app, by: count - (node.connections[app] ?? 0))
                node.connections[app] = count > 0 ? count : nil
            case .member(let app, let channel, let user, let info):
                let key = ClusterChannelKey(app: app, channel: channel)
                guard node.members[key]?[user] != info else { continue }
                node.members[key, default: [:]][user] = info
                if node.members[key]?.isEmpty ?? false { node.members[key] = nil }
                changes.append(MemberChange(app: app, channel: channel, node: id, user: user, info: info))
            }
        }
        nodes[id] = node
        return changes
    }

    /// Applies the snapshots read from Redis: every live node's share. A node not among them
    /// has stopped refreshing its share (dead or cut off) and its share is dropped, unless
    /// `dropMissing` is false (Redis came back empty: the others may not have stored theirs yet).
    mutating func applyLive(_ snapshots: [String: (boot: UInt64, update: ClusterShareUpdate)], dropMissing: Bool = true) -> [MemberChange] {
        var changes: [MemberChange] = []
        for id in nodes.keys.sorted() where dropMissing && snapshots[id] == nil {
            changes += replace(id, with: nil)
        }
        for id in snapshots.keys.sorted() {
            let snapshot = snapshots[id]!
            changes += apply(node: id, boot: snapshot.boot, snapshot.update)
        }
        return changes
    }

    /// The other nodes' subscriptions to a channel.
    func remoteSubscriptions(_ key: ClusterChannelKey) -> Int { totals[key] ?? 0 }

    /// The other nodes' connections of an app.
    func remoteConnections(_ app: String) -> Int { connectionTotals[app] ?? 0 }

    /// The channels whose totals changed since the last call, with their new totals (0: none).
    mutating func takeChangedTotals() -> [ClusterChannelKey: Int] {
        defer { changedTotals = [:] }
        return changedTotals
    }

    /// Replaces a node's state (nil: forgets the node) and returns the member differences.
    private mutating func replace(_ id: String, with snapshot: (boot: UInt64, update: ClusterShareUpdate)?) -> [MemberChange] {
        let old = nodes.removeValue(forKey: id)
        for (key, count) in old?.counts ?? [:] { adjustTotal(key, by: -count) }
        for (app, count) in old?.connections ?? [:] { adjustConnections(app, by: -count) }
        var fresh: Node?
        if let snapshot {
            var node = Node(boot: snapshot.boot, seq: snapshot.update.seq)
            for change in snapshot.update.changes {
                switch change {
                case .count(let app, let channel, let count) where count > 0:
                    node.counts[ClusterChannelKey(app: app, channel: channel)] = count
                case .member(let app, let channel, let user, let info?):
                    node.members[ClusterChannelKey(app: app, channel: channel), default: [:]][user] = info
                case .connections(let app, let count) where count > 0:
                    node.connections[app] = count
                default: break
                }
            }
            for (key, count) in node.counts { adjustTotal(key, by: count) }
            for (app, count) in node.connections { adjustConnections(app, by: count) }
            nodes[id] = node
            fresh = node
        }
        var changes: [MemberChange] = []
        let before = old?.members ?? [:], after = fresh?.members ?? [:]
        for key in before.keys.sorted(by: Self.order) {
            for user in before[key]!.keys.sorted() where after[key]?[user] == nil {
                changes.append(MemberChange(app: key.app, channel: key.channel, node: id, user: user, info: nil))
            }
        }
        for key in after.keys.sorted(by: Self.order) {
            for (user, info) in after[key]!.sorted(by: { $0.key < $1.key }) where before[key]?[user] != info {
                changes.append(MemberChange(app: key.app, channel: key.channel, node: id, user: user, info: info))
            }
        }
        return changes
    }

    private mutating func adjustTotal(_ key: ClusterChannelKey, by delta: Int) {
        guard delta != 0 else { return }
        let total = (totals[key] ?? 0) + delta
        totals[key] = total > 0 ? total : nil
        changedTotals[key] = max(0, total)
    }

    private mutating func adjustConnections(_ app: String, by delta: Int) {
        guard delta != 0 else { return }
        let total = (connectionTotals[app] ?? 0) + delta
        connectionTotals[app] = total > 0 ? total : nil
    }

    private static func order(_ a: ClusterChannelKey, _ b: ClusterChannelKey) -> Bool {
        (a.app, a.channel) < (b.app, b.channel)
    }
}
