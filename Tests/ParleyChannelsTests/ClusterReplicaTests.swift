import Testing

@testable import ParleyChannels

/// The replica of other nodes' shares: deltas in order, stale snapshots ignored, gaps healed,
/// a restarted node's old share dropped.
@Suite struct ClusterReplicaTests {
    let key = ClusterChannelKey(app: "3", channel: "presence-p")

    func delta(_ seq: UInt64, _ changes: ClusterShareChange...) -> ClusterShareUpdate {
        ClusterShareUpdate(seq: seq, full: false, changes: changes)
    }

    func member(_ user: String, _ info: String?) -> ClusterShareChange {
        .member(app: "3", channel: "presence-p", user: user, info: info.map { Array($0.utf8) })
    }

    @Test func staleSnapshotsAreIgnoredAndGapsHealed() {
        var replica = ClusterReplica()
        #expect(replica.apply(node: "b", boot: 1, delta(1, member("u", "{}"), .count(app: "3", channel: "presence-p", 1))).count == 1)
        // A snapshot taken before delta 1 (read late) changes nothing.
        #expect(replica.apply(node: "b", boot: 1, ClusterShareUpdate(seq: 0, full: true, changes: [])).isEmpty)
        #expect(replica.remoteSubscriptions(key) == 1)
        // Delta 3 without 2: applied, and the next snapshot at 3 replaces the state.
        _ = replica.apply(node: "b", boot: 1, delta(3, member("v", "{}")))
        let healed = replica.apply(node: "b", boot: 1, ClusterShareUpdate(seq: 3, full: true, changes: [member("v", "{}")]))
        #expect(healed.map(\.user) == ["u"] && healed.first?.info == nil)
        #expect(replica.remoteSubscriptions(key) == 0)
    }

    @Test func aRestartedNodesOldShareIsDropped() {
        var replica = ClusterReplica()
        _ = replica.apply(node: "b", boot: 1, delta(1, member("u", "{}")))
        let changes = replica.apply(node: "b", boot: 2, delta(1, member("v", "{}")))
        #expect(changes.map(\.user) == ["u", "v"])
        #expect(changes.map { $0.info == nil } == [true, false])
    }

    @Test func nodesMissingFromTheLiveSharesAreForgotten() {
        var replica = ClusterReplica()
        _ = replica.apply(node: "b", boot: 1, delta(1, member("u", "{}"), .count(app: "3", channel: "presence-p", 2)))
        let changes = replica.applyLive([:])
        #expect(changes.map(\.user) == ["u"] && changes.first?.info == nil)
        #expect(replica.remoteSubscriptions(key) == 0 && replica.nodes.isEmpty)
    }
}
