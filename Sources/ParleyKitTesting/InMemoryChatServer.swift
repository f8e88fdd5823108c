import ParleyKit
import ParleyWireCore
import Synchronization

/// A chat server in memory that speaks the REST contract and the Pusher protocol through the
/// SDK's transport protocols: for tests, previews and demos without a network.
///
/// It keeps users, rooms, members, messages (per-room seq, client-id idempotency), cursors,
/// reactions, attachments, typing, presence and user blocks, and can misbehave on request: go
/// unreachable, drop connections with a close code, publish nothing (so clients must
/// gap-fill), publish twice, or lose the answer to a request it carried out.
public final class InMemoryChatServer: HTTPTransport, RealtimeTransport {
    struct RoomRecord {
        var room: ChatRoom
        var members: [String: (role: MemberRole, readSeq: Int64, readAt: Int64?)]
        var messages: [ChatMessage] = []
        var clientIDs: [String: Int] = [:]
    }

    struct SocketRecord {
        let sink: AsyncStream<RealtimeFrame>.Continuation
        let socketID: String
        var userID: String?
        var channels: Set<String> = []
    }

    struct State {
        var users: [String: ChatUser] = [:]
        var rooms: [String: RoomRecord] = [:]
        var nextMessageID: Int64 = 1
        var nextRoomNumber = 1
        var attachments: [String: (meta: Attachment, bytes: [UInt8])] = [:]
        var sockets: [Int: SocketRecord] = [:]
        var nextSocket = 1
        var reachable = true
        var publishing = true
        var duplicating = false
        var responsesToLose = 0
        var historyFailures = 0
        var refusals: [(status: Int, code: String)] = []
        var requestCounts: [String: Int] = [:]
        var lastSeen: [String: Int64] = [:]
        /// Blocker → the users they block.
        var blocks: [String: Set<String>] = [:]
    }

    let state = Mutex(State())
    let clock: any ParleyClock
    /// The app key clients use.
    public let appKey = "fake-key"

    /// Creates an empty server on `clock`.
    public init(clock: any ParleyClock = SystemClock()) {
        self.clock = clock
    }

    // MARK: Setup and inspection

    /// Creates (or returns) a user.
    @discardableResult
    public func addUser(_ id: String, name: String? = nil) -> ChatUser {
        state.withLock { state in
            if let user = state.users[id] { return user }
            let user = ChatUser(id: id, name: name ?? id, createdAt: clock.now(), updatedAt: clock.now())
            state.users[id] = user
            return user
        }
    }

    /// A token for `userID` (an unsigned JWT with `sub` and `exp`, as the SDK reads it), valid a
    /// year on the server's clock unless `expiresAt` (seconds) says otherwise.
    public func token(for userID: String, expiresAt: Int64? = nil) -> String {
        let exp = expiresAt ?? (clock.now() / 1000 + 365 * 86_400)
        let payload = JSONWriter.serialize(.object(["sub": .string(userID), "aud": .string("fake"), "exp": .number(String(exp))]))
        return "eyJhbGciOiJIUzI1NiJ9." + Self.base64URL(payload) + ".fake"
    }

    /// Every message stored in a room, ascending.
    public func messages(in roomID: String) -> [ChatMessage] {
        state.withLock { $0.rooms[roomID]?.messages ?? [] }
    }

    /// How many requests matched `"METHOD /path"` (path without query).
    public func requestCount(_ key: String) -> Int { state.withLock { $0.requestCounts[key] ?? 0 } }

    /// How many realtime connections are open.
    public var openConnectionCount: Int { state.withLock { $0.sockets.count } }

    /// How many open connections are subscribed to `channel`.
    public func subscriberCount(_ channel: String) -> Int {
        state.withLock { $0.sockets.values.filter { $0.channels.contains(channel) }.count }
    }

    /// Whether connections and requests get through; going unreachable breaks open connections (1006).
    public func setReachable(_ reachable: Bool) {
        let sinks: [AsyncStream<RealtimeFrame>.Continuation] = state.withLock { state in
            state.reachable = reachable
            return reachable ? [] : state.sockets.values.map(\.sink)
        }
        if !reachable { dropSinks(sinks, code: 1006, reason: "") }
        if !reachable { state.withLock { $0.sockets = [:] } }
    }

    /// Closes every realtime connection with `code` (after a `pusher:error` for 4000–4999).
    public func dropConnections(code: Int, reason: String = "") {
        let sinks = state.withLock { state in
            defer { state.sockets = [:] }
            return state.sockets.values.map(\.sink)
        }
        dropSinks(sinks, code: code, reason: reason)
        announceOfflineUsers()
    }

    /// Whether writes are published as realtime events (off: clients must fill from history).
    public func setPublishing(_ publishing: Bool) { state.withLock { $0.publishing = publishing } }

    /// Whether every event is published twice.
    public func setDuplicating(_ duplicating: Bool) { state.withLock { $0.duplicating = duplicating } }

    /// The next `count` requests are carried out but their answers are lost (network error).
    public func loseResponses(_ count: Int) { state.withLock { $0.responsesToLose = count } }

    /// The next `count` history reads answer 503 (an overloaded server) without reading.
    public func failHistoryReads(_ count: Int) { state.withLock { $0.historyFailures = count } }

    /// The next message sends are refused with these status/code pairs, in order.
    public func refuseSends(_ refusals: [(status: Int, code: String)]) { state.withLock { $0.refusals += refusals } }

    /// Sends a message as `userID` without a client (another user typing on another device);
    /// with `parentID` a reply in that thread (`showInRoom` also in the room's history), with
    /// `quotedID` quoting that message. Nil when the server refuses it.
    @discardableResult
    public func post(
        _ text: String, as userID: String, in roomID: String, parentID: Int64? = nil, showInRoom: Bool = false,
        quoting quotedID: Int64? = nil
    ) -> ChatMessage? {
        let (message, events) = state.withLock { state -> (ChatMessage?, [Event]) in
            guard
                let result = try? Self.append(
                    &state, room: roomID, sender: userID, clientID: nil, parts: [.text(text)], now: clock.now(), parentID: parentID,
                    showInRoom: showInRoom, quotedID: quotedID)
            else {
                return (nil, [])
            }
            return (result.message, result.events)
        }
        publish(events)
        return message
    }

    /// Announces that `userID` is typing in a room.
    public func typing(_ userID: String, in roomID: String) {
        publish([
            Event(
                channel: "private-room-" + roomID, name: "typing",
                data: .object(["room_id": .string(roomID), "user_id": .string(userID)]))
        ])
    }

    /// Publishes an event with `data` exactly as given (JSON or not) on a room's channel: what a
    /// client does with an event it cannot read.
    public func publishRaw(event name: String, data: String, in roomID: String) {
        let frame = PusherFrame.channelEvent(event: name, channel: "private-room-" + roomID, data: .string(data))
        let sinks = state.withLock { state in
            state.sockets.values.filter { $0.channels.contains("private-room-" + roomID) }.map(\.sink)
        }
        for sink in sinks { sink.yield(.text(frame)) }
    }

    // MARK: Events

    struct Event {
        let channel: String
        let name: String
        let data: JSONValue
    }

    func publish(_ events: [Event]) {
        let deliveries: [(AsyncStream<RealtimeFrame>.Continuation, [UInt8])] = state.withLock { state in
            guard state.publishing else { return [] }
            var out: [(AsyncStream<RealtimeFrame>.Continuation, [UInt8])] = []
            for event in events {
                let frame = PusherFrame.channelEvent(
                    event: event.name, channel: event.channel, data: .string(JSONWriter.string(event.data)))
                for socket in state.sockets.values where socket.channels.contains(event.channel) {
                    out.append((socket.sink, frame))
                    if state.duplicating { out.append((socket.sink, frame)) }
                }
            }
            return out
        }
        for (sink, frame) in deliveries { sink.yield(.text(frame)) }
    }

    private func dropSinks(_ sinks: [AsyncStream<RealtimeFrame>.Continuation], code: Int, reason: String) {
        for sink in sinks {
            if code >= 4000 { sink.yield(.text(PusherFrame.error(code: code, message: reason.isEmpty ? "closing" : reason))) }
            sink.yield(.closed(code: code, reason: reason))
            sink.finish()
        }
    }

    func announceOfflineUsers() {
        let events: [Event] = state.withLock { state in
            let online = Set(state.sockets.values.compactMap(\.userID))
            var events: [Event] = []
            for (user, _) in state.lastSeen where !online.contains(user) {
                state.lastSeen[user] = nil
                events += Self.presenceEvents(state, user: user, online: false, now: clock.now())
            }
            return events
        }
        publish(events)
    }

    static func presenceEvents(_ state: State, user: String, online: Bool, now: Int64) -> [Event] {
        let data = PresenceStatus(userID: user, isOnline: online, lastSeenAt: now).json
        return state.rooms.values.filter { $0.members[user] != nil }.map {
            Event(channel: "private-room-" + $0.room.id, name: "presence.changed", data: data)
        }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        String(Base64Text.encode(bytes).compactMap { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? nil : $0 })
    }
}
