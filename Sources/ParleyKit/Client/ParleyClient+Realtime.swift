import ParleyWireCore

/// Incoming realtime messages: protocol events, room events, the user's events.
extension ParleyClient {
    /// Handles one text frame; returns whether the connection is established.
    @discardableResult
    func handleFrame(_ bytes: [UInt8]) -> Bool {
        lastFrameAt = clock.now()
        let message: PusherMessage
        do { message = try PusherMessage.parse(bytes) } catch {
            report(.decoding, ParleyError(.decoding, "realtime frame is not a Pusher message: \(error)"))
            return socketID != nil
        }
        handle(message)
        return socketID != nil
    }

    private func handle(_ message: PusherMessage) {
        switch message.event {
        case "pusher:connection_established":
            if let id = message.dataObject?["socket_id"]?.stringValue { established(socketID: id) }
        case "pusher:ping":
            send(PusherMessage(event: "pusher:pong", data: .object([:])))
        case "pusher:error":
            lastServerError = message.dataObject?["message"]?.stringValue
        case "pusher:signin_success":
            signInSucceeded()
            if let userID = currentUserID {
                send(
                    PusherMessage(
                        event: "pusher:subscribe", data: .object(["channel": .string("#server-to-user-" + userID), "auth": .string("")])))
            }
        case "pusher_internal:subscription_succeeded":
            if let channel = message.channel, let roomID = Self.roomID(channel: channel) { subscribed(roomID) }
        case "pusher:subscription_error":
            guard let channel = message.channel, let roomID = Self.roomID(channel: channel) else { return }
            rooms[roomID]?.subscribing = false
            let data = message.dataObject
            subscriptionFailed(
                roomID,
                ParleyError(
                    .server, data?["error"]?.stringValue ?? "subscription refused",
                    status: data?["status"]?.intValue, serverCode: data?["type"]?.stringValue))
        default:
            guard let channel = message.channel else { return }
            guard let data = message.dataObject else {
                let room = Self.roomID(channel: channel)
                if room != nil || channel.hasPrefix("#server-to-user-") {
                    report(.decoding, ParleyError(.decoding, "\(message.event): data is not a JSON object"), room: room)
                }
                return
            }
            if let roomID = Self.roomID(channel: channel) {
                handleRoomEvent(message.event, roomID: roomID, data: data)
            } else if channel.hasPrefix("#server-to-user-") {
                handleUserEvent(message.event, data: data)
            }
        }
    }

    static func roomID(channel: String) -> String? {
        channel.hasPrefix("private-room-") ? String(channel.dropFirst("private-room-".count)) : nil
    }

    private func subscribed(_ roomID: String) {
        rooms[roomID]?.subscribing = false
        rooms[roomID]?.subscribed = true
        startFill(roomID)
    }

    /// Decodes an event's payload; a payload that does not decode is reported and skipped.
    private func decode<T>(_ event: String, room: String? = nil, _ body: () throws(ParleyError) -> T) -> T? {
        do { return try body() } catch {
            report(.decoding, ParleyError(.decoding, "\(event): \(error.message)"), room: room)
            return nil
        }
    }

    /// The `user_id` of an event about one user.
    private func decodeUserID(_ event: String, _ value: JSONValue, room: String) -> String? {
        decode(event, room: room) { () throws(ParleyError) in try JSONReader(value, event).string("user_id") }
    }

    private func handleRoomEvent(_ name: String, roomID: String, data: JSONObject) {
        let value = JSONValue.object(data)
        switch name {
        case "message.created":
            guard let message = decode(name, room: roomID, { () throws(ParleyError) in try ChatMessage(json: data["message"]) }) else {
                return
            }
            clearTyper(message.senderID, room: roomID)
            ingest([message], room: roomID)
        case "message.updated", "message.deleted":
            guard let message = decode(name, room: roomID, { () throws(ParleyError) in try ChatMessage(json: data["message"]) }) else {
                return
            }
            applyUpdate(message, deleted: name == "message.deleted")
        case "thread.updated":
            if let activity = decode(name, room: roomID, { () throws(ParleyError) in try ThreadActivity(json: value) }) {
                emit(.threadUpdated(activity), room: roomID)
            }
        case "reaction.changed":
            guard
                let (id, counts) = decode(
                    name, room: roomID,
                    { () throws(ParleyError) in
                        let r = try JSONReader(value, name)
                        return (try r.int64("message_id"), try ReactionCount.list(try r.array("reactions")))
                    })
            else { return }
            // A blocked user's reaction is not announced (the counts the next change brings include it).
            if let user = data["user_id"]?.stringValue, isBlocked(user) { return }
            emit(.reactions(messageID: id, reactions: counts), room: roomID)
        case "cursor.updated":
            if let cursor = decode(name, room: roomID, { () throws(ParleyError) in try ReadCursor(json: value) }) {
                emit(.cursor(cursor), room: roomID)
            }
        case "typing":
            if let user = decodeUserID(name, value, room: roomID) { receivedTyping(user, room: roomID) }
        case "typing.stopped":
            if let user = decodeUserID(name, value, room: roomID) { clearTyper(user, room: roomID) }
        case "presence.changed":
            guard let presence = decode(name, room: roomID, { () throws(ParleyError) in try PresenceStatus(json: value) }) else { return }
            emit(.presence(presence), room: roomID)
            userHub.send(.presence(presence))
        case "member.joined":
            if let user = decodeUserID(name, value, room: roomID) { emit(.memberJoined(userID: user), room: roomID) }
        case "member.left":
            if let user = decodeUserID(name, value, room: roomID) { emit(.memberLeft(userID: user), room: roomID) }
        case "member.updated":
            if let member = decode(name, room: roomID, { () throws(ParleyError) in try Membership(json: value["membership"]) }) {
                emit(.memberUpdated(member), room: roomID)
            }
        case "room.updated":
            if let room = decode(name, room: roomID, { () throws(ParleyError) in try ChatRoom(json: value["room"]) }) {
                emit(.roomUpdated(room), room: roomID)
            }
        case "attachment.deleted":
            if let id = decode(name, room: roomID, { () throws(ParleyError) in try JSONReader(value, name).string("attachment_id") }) {
                emit(.attachmentDeleted(attachmentID: id), room: roomID)
            }
        case "room.deleted":
            emit(.roomDeleted, room: roomID)
            removeCachedRoom(roomID)
        default:
            break
        }
    }

    private func handleUserEvent(_ name: String, data: JSONObject) {
        let value = JSONValue.object(data)
        switch name {
        case "room.added":
            guard let room = decode(name, { () throws(ParleyError) in try ChatRoom(json: value["room"]) }) else { return }
            let summary = RoomSummary(room: room, role: MemberRole(rawValue: value["role"]?.stringValue ?? "") ?? .member)
            if let user = currentUserID { storeWrite(room.id) { store throws(ParleyError) in try store.saveRoom(summary, user: user) } }
            if rooms[room.id] == nil {
                rooms[room.id] = RoomChannelState()
                subscribeIfOnline(room.id)
            }
            userHub.send(.roomAdded(room))
        case "room.removed":
            guard let id = decode(name, { () throws(ParleyError) in try JSONReader(value, name).string("room_id") }) else { return }
            removeCachedRoom(id)
            userHub.send(.roomRemoved(roomID: id))
        case "room.activity":
            if let message = decode(name, { () throws(ParleyError) in try ChatMessage(json: value["message"]) }) {
                userHub.send(.roomActivity(message))
            }
        case "room.read":
            guard
                let (id, seq, unread, mentions) = decode(
                    name,
                    { () throws(ParleyError) in
                        let r = try JSONReader(value, name)
                        return (
                            try r.string("room_id"), try r.int64("read_seq"), Int(try r.int64IfPresent("unread_count") ?? 0),
                            Int(try r.int64IfPresent("unread_mentions") ?? 0)
                        )
                    })
            else { return }
            userHub.send(.roomRead(roomID: id, readSeq: seq, unreadCount: unread, unreadMentions: mentions))
        case "message.mentioned":
            if let message = decode(name, { () throws(ParleyError) in try ChatMessage(json: value["message"]) }) {
                userHub.send(.mentioned(message))
            }
        default:
            break
        }
    }

    private func removeCachedRoom(_ roomID: String) {
        guard let user = currentUserID else { return }
        storeWrite(roomID) { store throws(ParleyError) in try store.removeRoom(roomID, user: user) }
    }
}
