import ParleyKit
import ParleyWireCore

/// The REST side of the in-memory server (the subset of docs/openapi.json the SDK uses).
extension InMemoryChatServer {
    struct Failure: Error {
        let status: Int
        let code: String
    }

    typealias Reply = (status: Int, body: JSONValue?, events: [Event])

    /// Sends the request and returns the whole response (see ``HTTPTransport``).
    public func send(
        _ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?
    ) async throws(ParleyError) -> HTTPResponseMessage {
        guard state.withLock({ $0.reachable }) else { throw ParleyError(.network, "connection refused (server unreachable)") }
        progress?(0, request.body.count)
        let (path, query) = Self.split(request.url)
        state.withLock { $0.requestCounts[request.method + " " + path, default: 0] += 1 }
        let failHistory =
            request.method == "GET" && path.hasSuffix("/messages")
            && state.withLock { state in
                guard state.historyFailures > 0 else { return false }
                state.historyFailures -= 1
                return true
            }
        let reply: Reply
        do {
            if failHistory { throw Failure(status: 503, code: "unavailable") }
            reply = try route(request, path: path, query: query)
        } catch let failure as Failure {
            reply = (failure.status, .object(["error": .object(["code": .string(failure.code), "message": .string(failure.code)])]), [])
        } catch {
            reply = (500, nil, [])
        }
        progress?(request.body.count, request.body.count)
        publish(reply.events)
        let lost = state.withLock { state -> Bool in
            guard state.responsesToLose > 0 else { return false }
            state.responsesToLose -= 1
            return true
        }
        if lost { throw ParleyError(.network, "connection reset before the answer") }
        if case .string(let raw)? = reply.body, reply.status == 200, path.hasSuffix("/content") {
            return HTTPResponseMessage(status: 200, body: Base64Text.decode(raw) ?? [])
        }
        return HTTPResponseMessage(status: reply.status, body: reply.body.map(JSONWriter.serialize) ?? [])
    }

    static func split(_ url: String) -> (path: String, query: [String: String]) {
        var rest = Substring(url)
        if rest.hasPrefix("http://") {
            rest = rest.dropFirst(7)
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        }
        let pieces = rest.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                query[percentDecode(kv[0])] = kv.count == 2 ? percentDecode(kv[1]) : ""
            }
        }
        return (pieces.first.map(String.init) ?? "/", query)
    }

    static func percentDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func caller(_ request: HTTPRequestMessage) throws -> String {
        guard let header = request.headers.first("Authorization"), header.hasPrefix("Bearer "),
            let claims = JWTClaims(token: String(header.dropFirst(7))), let subject = claims.subject
        else {
            throw Failure(status: 401, code: "authentication_required")
        }
        if let exp = claims.expiresAt, exp * 1000 < clock.now() { throw Failure(status: 401, code: "token_expired") }
        return subject
    }

    /// The request's JSON body; an upload's bytes are not JSON and read as null, a JSON body
    /// that does not parse is refused as the server refuses it.
    static func jsonBody(_ request: HTTPRequestMessage) throws -> JSONValue {
        if request.body.isEmpty { return .object([:]) }
        do { return try JSONParser.parse(request.body) } catch {
            let type = request.headers.first("Content-Type") ?? ""
            if type.hasPrefix("application/json") { throw Failure(status: 400, code: "invalid_json") }
            return .null
        }
    }

    private func route(_ request: HTTPRequestMessage, path: String, query: [String: String]) throws -> Reply {
        let segments = path.split(separator: "/").map { Self.percentDecode($0) }
        guard segments.first == "v1" else { throw Failure(status: 404, code: "not_found") }
        let s = Array(segments.dropFirst())
        let body = try Self.jsonBody(request)
        if s == ["dev", "users"] { return devUser(body) }
        let me = try caller(request)
        let now = clock.now()
        return try state.withLock { state throws -> Reply in
            guard state.users[me] != nil else { throw Failure(status: 404, code: "user_not_found") }
            switch (request.method, s.count, s.first) {
            case ("GET", 1, "me"): return (200, state.users[me]!.json, [])
            case ("GET", 1, "search"): return try Self.search(state, me, query)
            case ("GET", 2, "me") where s[1] == "rooms": return (200, Self.summaries(state, user: me), [])
            case (_, _, "me") where s.count >= 2 && s[1] == "blocks": return try Self.blocks(&state, me, request.method, s)
            case ("GET", 2, "users"):
                guard let user = state.users[s[1]] else { throw Failure(status: 404, code: "user_not_found") }
                return (200, user.json, [])
            case ("GET", 3, "users") where s[2] == "presence":
                return (200, PresenceStatus(userID: s[1], isOnline: state.sockets.values.contains { $0.userID == s[1] }).json, [])
            case ("POST", 1, "rooms"): return try Self.createRoom(&state, body, creator: me, now: now)
            case ("POST", 2, "rooms") where s[1] == "direct":
                return try Self.directRoom(&state, me, body["user_id"]?.stringValue ?? "", now: now)
            case ("POST", 2, "channels"): return try Self.channelAuth(state, me, body, user: s[1] == "user-auth")
            case ("POST", 2, "attachments"), ("GET", 2, "attachments"), ("GET", 3, "attachments"), ("DELETE", 2, "attachments"):
                return try Self.attachment(&state, me, request, s, now: now)
            case (_, _, "rooms") where s.count >= 2:
                return try Self.roomRoute(&state, me, request.method, Array(s.dropFirst()), body, query, request, now: now)
            default: throw Failure(status: 404, code: "not_found")
            }
        }
    }

    private func devUser(_ body: JSONValue) -> Reply {
        let name = body["name"]?.stringValue ?? "user"
        let user = addUser(body["id"]?.stringValue ?? name.lowercased(), name: name)
        return (200, user.json, [])
    }

    static func member(_ state: State, _ room: String, _ user: String) throws -> RoomRecord {
        guard let record = state.rooms[room] else { throw Failure(status: 404, code: "room_not_found") }
        guard record.members[user] != nil else { throw Failure(status: 403, code: "not_member") }
        return record
    }

    static func summaries(_ state: State, user: String) -> JSONValue {
        let list = state.rooms.values.filter { $0.members[user] != nil }.map { record -> RoomSummary in
            let read = record.members[user]!.readSeq
            return RoomSummary(
                room: record.room, role: record.members[user]!.role, readSeq: read,
                unreadCount: unreadCount(record, user: user, after: read), lastMessage: record.messages.last,
                unreadMentions: unreadMentions(record, user: user, after: read))
        }.sorted { ($0.room.lastActivityAt, $0.room.id) > ($1.room.lastActivityAt, $1.room.id) }
        return .object(["rooms": .array(list.map(\.json))])
    }

    static func createRoom(_ state: inout State, _ body: JSONValue, creator: String, now: Int64) throws -> Reply {
        let id = body["id"]?.stringValue ?? "room-\(state.nextRoomNumber)"
        state.nextRoomNumber += 1
        guard state.rooms[id] == nil else { throw Failure(status: 409, code: "already_exists") }
        let kind = ChatRoom.Kind(rawValue: body["kind"]?.stringValue ?? "private") ?? .private
        let others = (body["member_ids"]?.arrayValue ?? []).compactMap(\.stringValue).filter { $0 != creator }
        for other in others where state.users[other] == nil { throw Failure(status: 404, code: "user_not_found") }
        var record = RoomRecord(
            room: ChatRoom(
                id: id, kind: kind, name: body["name"]?.stringValue, createdBy: creator,
                lastActivityAt: now, memberCount: 1 + others.count, createdAt: now),
            members: [creator: (.admin, 0, nil)])
        for other in others { record.members[other] = (.member, 0, nil) }
        state.rooms[id] = record
        return (201, record.room.json, ([creator] + others).map { roomAdded(record.room, user: $0) })
    }

    static func directRoom(_ state: inout State, _ me: String, _ other: String, now: Int64) throws -> Reply {
        guard state.users[other] != nil, other != me else { throw Failure(status: 404, code: "user_not_found") }
        let pair = [me, other].sorted()
        if let existing = state.rooms.values.first(where: { $0.room.kind == .direct && $0.room.directUserIDs == pair }) {
            return (200, existing.room.json, [])
        }
        let id = "direct-" + pair.joined(separator: "-")
        let room = ChatRoom(id: id, kind: .direct, directUserIDs: pair, lastActivityAt: now, memberCount: 2, createdAt: now)
        state.rooms[id] = RoomRecord(room: room, members: [me: (.member, 0, nil), other: (.member, 0, nil)])
        return (201, room.json, pair.map { roomAdded(room, user: $0) })
    }

    static func roomAdded(_ room: ChatRoom, user: String) -> Event {
        Event(
            channel: "#server-to-user-" + user, name: "room.added",
            data: .object(["room_id": .string(room.id), "room": room.json, "role": .string("member")]))
    }

    static func channelAuth(_ state: State, _ me: String, _ body: JSONValue, user: Bool) throws -> Reply {
        let socketID = body["socket_id"]?.stringValue ?? ""
        if user {
            return (
                200,
                .object(["auth": .string("fake-user:" + socketID), "user_data": .string(JSONWriter.string(.object(["id": .string(me)])))]),
                []
            )
        }
        let channel = body["channel_name"]?.stringValue ?? ""
        guard channel.hasPrefix("private-room-") else { throw Failure(status: 403, code: "channel_forbidden") }
        _ = try member(state, String(channel.dropFirst("private-room-".count)), me)
        return (200, .object(["auth": .string(channelAuth(socketID: socketID, channel: channel))]), [])
    }
}
