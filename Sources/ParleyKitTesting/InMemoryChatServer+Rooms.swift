import ParleyKit
import ParleyWireCore

/// Room-scoped routes of the in-memory server: members, messages, reactions, cursors, typing.
extension InMemoryChatServer {
    static func roomRoute(
        _ state: inout State, _ me: String, _ method: String, _ s: [String], _ body: JSONValue,
        _ query: [String: String], _ request: HTTPRequestMessage, now: Int64
    ) throws -> Reply {
        let roomID = s[0]
        let channel = "private-room-" + roomID
        switch (method, s.count, s.count > 1 ? s[1] : "") {
        case ("GET", 1, _):
            guard let record = state.rooms[roomID] else { throw Failure(status: 404, code: "room_not_found") }
            return (200, record.room.json, [])
        case ("POST", 2, "join"):
            guard var record = state.rooms[roomID] else { throw Failure(status: 404, code: "room_not_found") }
            guard record.room.kind == .public else { throw Failure(status: 403, code: "room_not_joinable") }
            if record.members[me] == nil { record.members[me] = (.member, 0, nil); record.room.memberCount += 1 }
            state.rooms[roomID] = record
            return (
                204, nil,
                [
                    Event(channel: channel, name: "member.joined", data: .object(["room_id": .string(roomID), "user_id": .string(me)])),
                    roomAdded(record.room, user: me)
                ]
            )
        case ("POST", 2, "leave"):
            var record = try member(state, roomID, me)
            record.members[me] = nil
            record.room.memberCount -= 1
            state.rooms[roomID] = record
            return (
                204, nil,
                [
                    Event(channel: channel, name: "member.left", data: .object(["room_id": .string(roomID), "user_id": .string(me)])),
                    Event(channel: "#server-to-user-" + me, name: "room.removed", data: .object(["room_id": .string(roomID)]))
                ]
            )
        case ("GET", 2, "members"):
            let record = try member(state, roomID, me)
            let list = record.members.sorted { $0.key < $1.key }.map {
                Membership(roomID: roomID, userID: $0.key, role: $0.value.role, readSeq: $0.value.readSeq)
            }
            return (
                200,
                .object([
                    "members": .array(
                        list.map { m in
                            .object([
                                "room_id": .string(m.roomID), "user_id": .string(m.userID), "role": .string(m.role.rawValue),
                                "joined_at": .int(0), "read_seq": .number(String(m.readSeq)), "read_at": .null
                            ])
                        }), "next_after": .null
                ]), []
            )
        case ("POST", 2, "members"):
            var record = try member(state, roomID, me)
            guard record.members[me]?.role == .admin else { throw Failure(status: 403, code: "not_room_admin") }
            guard let user = body["user_id"]?.stringValue, state.users[user] != nil else {
                throw Failure(status: 404, code: "user_not_found")
            }
            if record.members[user] == nil { record.members[user] = (.member, 0, nil); record.room.memberCount += 1 }
            state.rooms[roomID] = record
            return (
                201,
                .object([
                    "room_id": .string(roomID), "user_id": .string(user), "role": .string("member"), "joined_at": .int(0),
                    "read_seq": .int(0), "read_at": .null
                ]),
                [
                    Event(channel: channel, name: "member.joined", data: .object(["room_id": .string(roomID), "user_id": .string(user)])),
                    roomAdded(record.room, user: user)
                ]
            )
        case ("GET", 2, "messages"):
            let record = try member(state, roomID, me)
            let hidden = state.blocks[me] ?? []
            return (200, page(record.messages.filter { inHistory($0) && !hidden.contains($0.senderID) }, query), [])
        case ("GET", 3, "messages"):
            let record = try member(state, roomID, me)
            guard let message = record.messages.first(where: { String($0.id) == s[2] }) else {
                throw Failure(status: 404, code: "message_not_found")
            }
            return (200, message.json, [])
        case ("GET", 4, "messages") where s[3] == "replies":
            return (200, try replies(try member(state, roomID, me), parent: s[2], query), [])
        case ("POST", 2, "messages"):
            if !state.refusals.isEmpty {
                let refusal = state.refusals.removeFirst()
                throw Failure(status: refusal.status, code: refusal.code)
            }
            _ = try member(state, roomID, me)
            let parts = try MessagePart.list(body["parts"]?.arrayValue ?? [])
            guard !parts.isEmpty else { throw Failure(status: 400, code: "invalid_request") }
            let thread = try threadFields(body)
            let result = try append(
                &state, room: roomID, sender: me, clientID: body["client_id"]?.stringValue, parts: parts, now: now,
                parentID: thread.parentID, showInRoom: thread.showInRoom ?? false, quotedID: thread.quotedID)
            return (result.created ? 201 : 200, result.message.json, result.events)
        case ("PATCH", 3, "messages"), ("DELETE", 3, "messages"):
            var record = try member(state, roomID, me)
            guard let index = record.messages.firstIndex(where: { String($0.id) == s[2] }) else {
                throw Failure(status: 404, code: "message_not_found")
            }
            guard record.messages[index].senderID == me else { throw Failure(status: 403, code: "not_author") }
            if method == "PATCH" {
                record.messages[index].parts = try MessagePart.list(body["parts"]?.arrayValue ?? [])
                record.messages[index].editedAt = now
            } else {
                record.messages[index].parts = []
                record.messages[index].isDeleted = true
                record.messages[index].deletedAt = now
                forgetQuotes(of: record.messages[index], in: &record)
            }
            state.rooms[roomID] = record
            let message = record.messages[index]
            return (
                200, message.json,
                [
                    Event(
                        channel: channel, name: method == "PATCH" ? "message.updated" : "message.deleted",
                        data: .object(["room_id": .string(roomID), "seq": .number(String(message.seq)), "message": message.json]))
                ]
            )
        case ("PUT", 5, "messages"), ("DELETE", 5, "messages"):
            var record = try member(state, roomID, me)
            guard let index = record.messages.firstIndex(where: { String($0.id) == s[2] }) else {
                throw Failure(status: 404, code: "message_not_found")
            }
            let emoji = s[4]
            var counts = record.messages[index].reactions
            if method == "PUT" {
                if let i = counts.firstIndex(where: { $0.emoji == emoji }) {
                    counts[i].count += 1
                } else {
                    counts.append(ReactionCount(emoji: emoji, count: 1))
                }
            } else if let i = counts.firstIndex(where: { $0.emoji == emoji }) {
                counts[i].count -= 1
                if counts[i].count == 0 { counts.remove(at: i) }
            }
            record.messages[index].reactions = counts
            state.rooms[roomID] = record
            let data: JSONValue = .object([
                "room_id": .string(roomID), "message_id": .number(s[2]), "seq": .number(String(record.messages[index].seq)),
                "reactions": ReactionCount.json(counts)
            ])
            var event = data.objectValue ?? [:]
            event["user_id"] = .string(me)
            return (200, data, [Event(channel: channel, name: "reaction.changed", data: .object(event))])
        case ("PUT", 2, "cursor"):
            var record = try member(state, roomID, me)
            let seq = Int64(body["seq"]?.intValue ?? 0)
            let old = record.members[me]!
            let cursor = ReadCursor(roomID: roomID, userID: me, seq: max(seq, old.readSeq), readAt: now)
            guard seq > old.readSeq else { return (200, cursor.json, []) }
            record.members[me] = (old.role, seq, now)
            state.rooms[roomID] = record
            let unread = unreadCount(record, user: me, after: seq)
            let mentions = unreadMentions(record, user: me, after: seq)
            return (
                200, cursor.json,
                [
                    Event(channel: channel, name: "cursor.updated", data: cursor.json),
                    Event(
                        channel: "#server-to-user-" + me, name: "room.read",
                        data: .object([
                            "room_id": .string(roomID), "read_seq": .number(String(seq)), "unread_count": .int(unread),
                            "unread_mentions": .int(mentions)
                        ]))
                ]
            )
        case ("GET", 2, "cursors"):
            let record = try member(state, roomID, me)
            let cursors = record.members.sorted { $0.key < $1.key }.map {
                ReadCursor(roomID: roomID, userID: $0.key, seq: $0.value.readSeq, readAt: $0.value.readAt).json
            }
            return (200, .object(["cursors": .array(cursors)]), [])
        case ("POST", 2, "typing"):
            _ = try member(state, roomID, me)
            return (
                204, nil, [Event(channel: channel, name: "typing", data: .object(["room_id": .string(roomID), "user_id": .string(me)]))]
            )
        case ("POST", 2, "attachments"):
            _ = try member(state, roomID, me)
            guard !request.body.isEmpty else { throw Failure(status: 422, code: "validation_failed") }
            let id = "att-\(state.attachments.count + 1)"
            let meta = Attachment(
                id: id, roomID: roomID, uploaderID: me, contentType: request.headers.first("Content-Type") ?? "application/octet-stream",
                size: Int64(request.body.count), downloadURL: "/v1/attachments/\(id)/content", downloadURLExpiresAt: 0)
            state.attachments[id] = (meta, request.body)
            return (201, meta.json, [])
        default:
            throw Failure(status: 404, code: "not_found")
        }
    }

    static func attachment(_ state: inout State, _ me: String, _ request: HTTPRequestMessage, _ s: [String], now: Int64) throws -> Reply {
        guard s.count >= 2, let stored = state.attachments[s[1]] else { throw Failure(status: 404, code: "attachment_not_found") }
        _ = try member(state, stored.meta.roomID, me)
        if request.method == "DELETE" {
            // Only the uploader here: this server keeps no room roles.
            guard stored.meta.uploaderID == me else { throw Failure(status: 403, code: "not_author") }
            state.attachments[s[1]] = nil
            return (204, nil, [])
        }
        if s.count == 3 { return (200, .string(Base64Text.encode(stored.bytes)), []) }
        return (200, stored.meta.json, [])
    }

    /// A page of `messages` (ascending) by the history query (`before`, `after`, `limit`).
    static func page(_ messages: [ChatMessage], _ query: [String: String]) -> JSONValue {
        let limit = min(max(Int(query["limit"] ?? "") ?? 50, 1), 500)
        var selected: [ChatMessage]
        var hasMore: Bool
        if let after = query["after"].flatMap({ Int64($0) }) {
            let newer = messages.filter { $0.seq > after }
            selected = Array(newer.prefix(limit))
            hasMore = newer.count > limit
        } else {
            let older = query["before"].flatMap { Int64($0) }.map { before in messages.filter { $0.seq < before } } ?? messages
            selected = Array(older.suffix(limit))
            hasMore = older.count > limit
        }
        return .object(["messages": .array(selected.map(\.json)), "has_more": .bool(hasMore)])
    }

    static func append(
        _ state: inout State, room roomID: String, sender: String, clientID: String?, parts: [MessagePart],
        now: Int64, parentID: Int64? = nil, showInRoom: Bool = false, quotedID: Int64? = nil
    ) throws -> (message: ChatMessage, created: Bool, events: [Event]) {
        guard var record = state.rooms[roomID] else { throw Failure(status: 404, code: "room_not_found") }
        guard record.members[sender] != nil else { throw Failure(status: 403, code: "not_member") }
        if let clientID, let index = record.clientIDs[clientID] { return (record.messages[index], false, []) }
        let checked = try references(
            record, sender: sender, parts: parts, parentID: parentID, showInRoom: showInRoom, quotedID: quotedID)
        let message = ChatMessage(
            id: state.nextMessageID, roomID: roomID, seq: Int64(record.messages.count + 1), senderID: sender,
            clientID: clientID, parts: parts, createdAt: now, parentID: checked.rootID, showInRoom: checked.showInRoom,
            quoted: checked.quote, mentions: checked.mentions)
        state.nextMessageID += 1
        if let clientID { record.clientIDs[clientID] = record.messages.count }
        record.messages.append(message)
        let activity = countReply(message, in: &record)
        record.room.lastSeq = message.seq
        record.room.lastActivityAt = now
        state.rooms[roomID] = record
        let data: JSONValue = .object(["room_id": .string(roomID), "seq": .number(String(message.seq)), "message": message.json])
        var events = [Event(channel: "private-room-" + roomID, name: "message.created", data: data)]
        events += record.members.keys.sorted().map { Event(channel: "#server-to-user-" + $0, name: "room.activity", data: data) }
        events += threadEvents(message, activity: activity)
        return (message, true, events)
    }
}
