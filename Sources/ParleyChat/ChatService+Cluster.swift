import ParleyChannels

/// Keeping every node's chat caches and sockets in step: membership changes, ends of access
/// and deleted users made through one node reach the others over the cluster bus, and so do
/// users' signed-in connections (online status).
extension ChatService {
    /// Sends this service's changes to the other nodes over `hub`'s bus and applies theirs.
    public func joinCluster(_ hub: ClusterChannelHub) {
        cluster.withLock { $0 = hub }
        grants.acceptRemoteGrants()
        hub.setNoticeHandler(topic: ChatClusterNotice.topic) { [weak self] payload in
            guard let self, let notice = ChatClusterNotice(decoding: payload) else { return }
            self.apply(notice)
        }
        hub.setOnlineHandler { [weak self] app, user, online, announce in
            guard let self else { return }
            self.clusterPresenceChanged(app: app, user: user, online: online, announce: announce)
        }
        startCatchUp(hub)
    }

    /// Tells the other nodes (nothing without a cluster).
    func announce(_ notice: ChatClusterNotice) {
        guard let hub = cluster.withLock({ $0 }) else { return }
        hub.announce(topic: ChatClusterNotice.topic, payload: notice.encoded)
    }

    /// Applies another node's notice to this node's caches, grants and sockets. A deleted
    /// user's connections are closed by the hub's own cluster-wide terminate.
    func apply(_ notice: ChatClusterNotice) {
        switch notice {
        case .membershipsChanged:
            roomMembers.invalidate()
            moderationCache.invalidate()
        case .accessEnded(let ending):
            roomMembers.invalidate()
            endAccessHere(ending)
        case .userDeleted(let app, let user):
            tokenCutoffs.forget(TokenCutoffs.Key(app: app, user: user))
            verifier.cache.forget(app: app, user: user)
        case .busRejoined(let since):
            guard let hub = cluster.withLock({ $0 }) else { return }
            Task { await self.catchUp(hub: hub, since: since - Self.catchUpMargin) }
        case .channelGranted(let app, let channel, let socket, let user):
            guard grants.isLocal(app: app, socket: socket) else { return }
            // Checked again here, begin → membership → confirm, so an end of access that raced
            // the other node's check still wins; the confirmation admits a held subscription.
            Task { try? await self.grantChannel(app: app, user: user, socketID: socket, channel: channel) }
        }
    }
}
