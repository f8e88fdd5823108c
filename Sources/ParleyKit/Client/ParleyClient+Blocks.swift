import ParleyWireCore

/// The signed-in user's blocks (docs/moderation.md, "User blocks"). The server leaves blocked
/// users' messages out of history but broadcasts a room's realtime events to every member, so
/// the client hides them itself: once the block list is known, a room feed (``roomEvents(_:after:)``)
/// passes over blocked users' new messages (and their edits), typing and reaction changes.
extension ParleyClient {
    /// The users the signed-in user blocks (`GET /v1/me/blocks`). Read from the server the first
    /// time (or with `refresh`), then kept current by ``block(_:)`` and ``unblock(_:)`` on this
    /// client and read again at every sign-in of the realtime connection (blocks made elsewhere).
    /// Until it is first read, room feeds hide nobody.
    public func blockedUsers(refresh: Bool = false) async throws(ParleyError) -> Set<String> {
        try closedFlag.check()
        if !refresh, let blockedIDs { return blockedIDs }
        let reply = try await api.json("GET", "/v1/me/blocks")
        var ids = Set<String>()
        for item in try JSONReader(reply, "blocks").array("user_ids") {
            guard let id = item.stringValue else { throw ParleyError(.decoding, "blocks: user_ids holds a non-string") }
            ids.insert(id)
        }
        setBlocked(ids)
        return ids
    }

    /// The block list each time it changes (the current one first, once it is known).
    public nonisolated func blockedUserChanges() -> AsyncStream<Set<String>> { blocksHub.stream() }

    /// Blocks a user: no direct messages either way, their messages left out of history pages
    /// and hidden from this client's room feeds.
    public func block(_ userID: String) async throws(ParleyError) {
        _ = try await api.call("PUT", ChatAPI.path("me", "blocks", userID))
        try await changedBlocks { $0.insert(userID) }
    }

    /// Unblocks a user. Their messages show again in history; messages that arrived while they
    /// were blocked are not replayed by the feed (read them with ``history(_:before:after:limit:)``).
    public func unblock(_ userID: String) async throws(ParleyError) {
        _ = try await api.call("DELETE", ChatAPI.path("me", "blocks", userID))
        try await changedBlocks { $0.remove(userID) }
    }

    /// Whether the room feeds hide `userID`.
    func isBlocked(_ userID: String) -> Bool { blockedIDs?.contains(userID) ?? false }

    /// Applies this client's own change, reading the whole list first when it was never read.
    private func changedBlocks(_ change: (inout Set<String>) -> Void) async throws(ParleyError) {
        guard var ids = blockedIDs else {
            _ = try await blockedUsers(refresh: true)
            return
        }
        change(&ids)
        setBlocked(ids)
    }

    private func setBlocked(_ ids: Set<String>) {
        let changed = blockedIDs != ids
        blockedIDs = ids
        if changed { blocksHub.send(ids) }
        for user in ids { for room in rooms.keys { clearTyper(user, room: room) } }
    }

    /// A (re)connection: blocks made on other devices meanwhile. Only for apps that use blocks.
    func refreshBlocksAfterSignIn() {
        guard blockedIDs != nil else { return }
        let weak = WeakClient(self)
        Task {
            do throws(ParleyError) { _ = try await weak.value?.blockedUsers(refresh: true) } catch {
                await weak.value?.report(.backgroundRequest, error)
            }
        }
    }
}
