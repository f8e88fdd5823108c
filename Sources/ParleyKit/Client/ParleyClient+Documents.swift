/// Live collaborative documents, synced over the server's y-websocket endpoints.
extension ParleyClient {
    /// Opens the document called `name` of room `roomID` (created on first use; the room's
    /// members may edit it) and starts syncing it.
    /// - Parameter presence: how this user appears to the others; by default the user id as name.
    public func openDocument(
        room roomID: String, name: String, presence: DocumentPresence? = nil
    ) async throws(ParleyError) -> DocumentSession {
        try await openDocument(path: ChatAPI.path("rooms", roomID, "docs", name, "ws"), presence: presence)
    }

    /// Opens the document with id `documentID` and starts syncing it.
    public func openDocument(id documentID: String, presence: DocumentPresence? = nil) async throws(ParleyError) -> DocumentSession {
        try await openDocument(path: ChatAPI.path("docs", documentID, "ws"), presence: presence)
    }

    /// The WebSocket URL of a server path (`http://` becomes `ws://`).
    nonisolated func webSocketURL(_ path: String) -> String {
        let base = configuration.serverURL
        if base.hasPrefix("https://") { return "wss://" + base.dropFirst(8) + path }
        if base.hasPrefix("http://") { return "ws://" + base.dropFirst(7) + path }
        return base + path
    }

    private func openDocument(path: String, presence: DocumentPresence?) async throws(ParleyError) -> DocumentSession {
        try closedFlag.check()
        let me = try await userID()
        var presence = presence ?? DocumentPresence(userID: me, name: me)
        if presence.userID == nil { presence.userID = me }
        let session = DocumentSession(
            url: webSocketURL(path), tokenProvider: tokens, appID: configuration.appID,
            presence: presence, transport: documentTransport, clock: clock,
            reconnect: configuration.reconnect, random: random, diagnostics: configuration.diagnostics)
        await session.start()
        return session
    }
}
