import ParleyWire

/// What the cluster bus needs of the local hub: hearing of local subscription changes, and
/// applying other nodes' presence members.
extension LocalChannelHub {
    /// Sets who hears of every local subscription change (nil: nobody); the cluster hub.
    public func setShareObserver(_ observer: (any ChannelShareObserver)?) {
        shareObserver.withLock { $0 = observer }
    }

    /// Leaves occupancy and member webhooks (`channel_occupied`, `channel_vacated`,
    /// `member_added`, `member_removed`) to the cluster hub, which fires each once for the cluster.
    public func setClusterDecidesWebhooks(_ decides: Bool) {
        clusterDecidesWebhooks.store(decides, ordering: .relaxed)
    }

    /// Open connections per app on this node.
    public func connectionCounts() -> [String: Int] {
        state.withLock { s in s.directory.apps.compactMapValues { $0.connections > 0 ? $0.connections : nil } }
    }

    /// Applies the other nodes' subscription totals: `subscription_count` tells this node's
    /// subscribers the cluster's count (see `ChannelDirectory.applyRemoteCount`).
    public func applyRemoteCounts(app: AppConfig, _ counts: [(channel: String, count: Int)]) {
        let now = clock()
        state.withLock { s in
            for (channel, count) in counts {
                perform(s.directory.applyRemoteCount(app: app, channel: channel, count: count, now: now), handles: s.handles, app: app)
            }
        }
    }

    /// Applies presence changes on other nodes: each may send member_added or member_removed
    /// to this node's subscribers of the channel (see `ChannelDirectory.applyRemoteMember`).
    public func applyRemoteMembers(app: AppConfig, _ changes: [(channel: String, node: String, user: String, info: JSONValue?)]) {
        guard !changes.isEmpty else { return }
        state.withLock { s in
            for change in changes {
                let effects = s.directory.applyRemoteMember(
                    app: app.id, channel: change.channel, node: change.node,
                    user: change.user, info: change.info)
                perform(effects, handles: s.handles, app: app)
            }
        }
    }

    /// Remembers cache channel events published before this node started, unless a newer one
    /// is already known here; nothing is delivered.
    func rememberCache(app: AppConfig, _ events: [HubEvent]) {
        let now = clock()
        state.withLock { s in
            for event in events where s.directory.snapshot(app: app.id, channel: event.channel, now: now).cache == nil {
                s.directory.storeCache(app: app.id, channel: event.channel, frame: event.frame, data: event.data, now: now)
            }
        }
    }
}
