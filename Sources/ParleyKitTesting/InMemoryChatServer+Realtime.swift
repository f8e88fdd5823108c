import ParleyKit
import ParleyWireCore

/// The Pusher side of the in-memory server.
extension InMemoryChatServer {
    /// Opens a realtime connection (see ``RealtimeTransport``).
    public func connect(url: String) async throws(ParleyError) -> any RealtimeConnection {
        let (frames, sink) = AsyncStream<RealtimeFrame>.makeStream()
        let id: Int? = state.withLock { state in
            guard state.reachable else { return nil }
            let id = state.nextSocket
            state.nextSocket += 1
            state.sockets[id] = SocketRecord(sink: sink, socketID: "\(id).\(id * 7919)")
            return id
        }
        guard let id else { throw ParleyError(.network, "connection refused (server unreachable)") }
        let socketID = "\(id).\(id * 7919)"
        let data = JSONWriter.string(.object(["socket_id": .string(socketID), "activity_timeout": .int(120)]))
        sink.yield(.text(PusherMessage(event: "pusher:connection_established", data: .string(data)).serialized()))
        return FakeRealtimeConnection(server: self, id: id, frames: frames)
    }

    func receive(_ bytes: [UInt8], from id: Int) {
        guard let message = try? PusherMessage.parse(bytes) else { return }
        let data = message.dataObject ?? JSONObject()
        switch message.event {
        case "pusher:ping":
            reply(id, PusherFrame.pong())
        case "pusher:subscribe":
            subscribe(id, channel: data["channel"]?.stringValue ?? "", auth: data["auth"]?.stringValue ?? "")
        case "pusher:unsubscribe":
            state.withLock { _ = $0.sockets[id]?.channels.remove(data["channel"]?.stringValue ?? "") }
        case "pusher:signin":
            signIn(id, auth: data["auth"]?.stringValue ?? "", userData: data["user_data"]?.stringValue ?? "")
        default:
            break
        }
    }

    private func reply(_ id: Int, _ frame: [UInt8]) {
        state.withLock { $0.sockets[id]?.sink }?.yield(.text(frame))
    }

    private func subscribe(_ id: Int, channel: String, auth: String) {
        let allowed: Bool = state.withLock { state in
            guard let socket = state.sockets[id] else { return false }
            if channel.hasPrefix("#server-to-user-") { return socket.userID.map { "#server-to-user-" + $0 } == channel }
            guard auth == Self.channelAuth(socketID: socket.socketID, channel: channel) else { return false }
            state.sockets[id]?.channels.insert(channel)
            return true
        }
        if allowed, channel.hasPrefix("#") { state.withLock { _ = $0.sockets[id]?.channels.insert(channel) } }
        if allowed {
            reply(id, PusherFrame.subscriptionSucceeded(channel: channel))
        } else {
            reply(id, PusherFrame.subscriptionError(channel: channel, type: "AuthError", error: "forbidden", status: 401))
        }
    }

    private func signIn(_ id: Int, auth: String, userData: String) {
        let (ok, events): (Bool, [Event]) = state.withLock { state in
            guard let socket = state.sockets[id], auth == "fake-user:" + socket.socketID,
                let user = (try? JSONParser.parse(userData))?["id"]?.stringValue
            else { return (false, []) }
            state.sockets[id]?.userID = user
            let first = state.lastSeen[user] == nil
            state.lastSeen[user] = clock.now()
            return (true, first ? Self.presenceEvents(state, user: user, online: true, now: clock.now()) : [])
        }
        if ok {
            reply(id, PusherFrame.signinSuccess(userData: userData))
            publish(events)
        } else {
            reply(id, PusherFrame.error(code: 4009, message: "sign-in refused"))
        }
    }

    func close(_ id: Int, code: Int) {
        let sink = state.withLock { $0.sockets.removeValue(forKey: id)?.sink }
        sink?.yield(.closed(code: code, reason: ""))
        sink?.finish()
        announceOfflineUsers()
    }

    static func channelAuth(socketID: String, channel: String) -> String { "fake:" + socketID + ":" + channel }
}

/// A connection to the in-memory server.
struct FakeRealtimeConnection: RealtimeConnection {
    let server: InMemoryChatServer
    let id: Int
    let frames: AsyncStream<RealtimeFrame>

    func send(_ text: [UInt8]) { server.receive(text, from: id) }

    func close(code: Int) { server.close(id, code: code) }
}
