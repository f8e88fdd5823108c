import ParleyStore
import ParleyWire

/// Presence: the server reports signed-in realtime connections; room members hear of changes.
extension ChatService {
    /// A connection signed in as `user`; the first one announces `presence.changed` (online).
    public func userOnline(app: String, user: String) async {
        guard presence.connect(app: app, user: user, now: clock.now()) else { return }
        // In a cluster the bus decides when the user came online anywhere, and who says so.
        if let hub = cluster.withLock({ $0 }) { return hub.setUserSignedIn(app: app, user: user, true) }
        await announcePresence(app: app, user: user)
    }

    /// A signed-in connection of `user` closed; the last one announces `presence.changed` (offline).
    public func userOffline(app: String, user: String) async {
        guard presence.disconnect(app: app, user: user, now: clock.now()) else { return }
        if let hub = cluster.withLock({ $0 }) { return hub.setUserSignedIn(app: app, user: user, false) }
        await announcePresence(app: app, user: user)
    }

    /// Whether the user is online now and when they were last seen.
    public func presenceStatus(app: String, user: String) -> (online: Bool, lastSeenAt: Int64?) {
        let status = clusterPresence(app: app, user: user)
        return (status.online, status.lastSeenAt)
    }

    /// The user's presence here, or across the cluster: online while a connection on any node is.
    private func clusterPresence(app: String, user: String) -> PresenceTracker.Status {
        var status = presence.status(app: app, user: user)
        if !status.online, let hub = cluster.withLock({ $0 }) { status.online = hub.isOnline(app: app, user: user) }
        return status
    }

    /// A user came online or went offline across the cluster: every node remembers when it
    /// last saw them; one node tells their rooms.
    func clusterPresenceChanged(app: String, user: String, online: Bool, announce: Bool) {
        presence.seen(app: app, user: user, now: clock.now())
        guard announce else { return }
        Task { await announcePresence(app: app, user: user) }
    }

    /// `presence.changed` on each of the user's rooms' channels.
    private func announcePresence(app: String, user: String) async {
        guard let rooms = try? await store.roomSummaries(app: app, user: user, limit: configuration.limits.presenceRooms) else { return }
        let data = presenceJSON(app: app, user: user)
        publisher.publish(
            app: app,
            events: rooms.map {
                ChatEvent(channel: ChatEvent.roomChannel($0.room.id), name: "presence.changed", data: data)
            })
    }

    func presenceJSON(app: String, user: String) -> JSONValue {
        let status = clusterPresence(app: app, user: user)
        return PresenceStatus(userID: user, isOnline: status.online, lastSeenAt: status.lastSeenAt).json
    }

    func getPresence(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = call.parameter("user_id")
        _ = try await storeCall(notFound: .userNotFound) { try await store.user(app: context.appID, id: id) }
        return .json(presenceJSON(app: context.appID, user: id))
    }
}
