import ParleyWire

/// Incoming realtime messages: protocol events, room events, the user's events.
extension ParleyClient {
    func handleFrame(_ bytes: [UInt8]) {
        lastFrameAt = clock.now()
        guard let message = try? PusherMessage.parse(bytes) else { return }
        switch message.event {
        case "pusher:connection_established":
            if let id = message.dataObject?["socket_id"]?.stringValue { established(socketID: id) }
        case "pusher:ping":
            send(PusherMessage(event: "pusher:pong", data: .object([:])))
        case "pusher:error":
            lastServerError = message.dataObject?["message"]?.stringValue
        case "pusher:signin_success":
            if let userID = currentUserID {
                send(PusherMessage(event: "pusher:subscribe", data: .object(["channel": .string("#server-to-user-" + userID), "auth": .string("")])))
            }
        case "pusher_internal:subscription_succeeded":
            if let channel = message.channel, let roomID = Self.roomID(channel: channel) { subscribed(roomID) }
        case "pusher:subscription_error":
            if let channel = message.channel, let roomID = Self.roomID(channel: channel) { rooms[roomID]?.subscribing = false }
        default:
            guard let channel = message.channel, let data = message.dataObject else { return }
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

    private func handleRoomEvent(_ name: String, roomID: String, data: JSONObject) {
        let value = JSONValue.object(data)
        switch name {
        case "message.created":
            guard let message = try? ChatMessage(json: data["message"]) else { return }
            clearTyper(message.senderID, room: roomID)
            ingest([message], room: roomID)
        case "message.updated", "message.deleted":
            guard let message = try? ChatMessage(json: data["message"]) else { return }
            applyUpdate(message, deleted: name == "message.deleted")
        case "reaction.changed":
            guard let id = value["message_id"].flatMap({ $0.intValue }) else { return }
            emit(.reactions(messageID: Int64(id), reactions: ReactionCount.list(value["reactions"])), room: roomID)
        case "cursor.updated":
            if let cursor = try? ReadCursor(json: value) { emit(.cursor(cursor), room: roomID) }
        case "typing":
            if let user = value["user_id"]?.stringValue { receivedTyping(user, room: roomID) }
        case "presence.changed":
            guard let presence = try? PresenceStatus(json: value) else { return }
            emit(.presence(presence), room: roomID)
            userHub.send(.presence(presence))
        case "member.joined":
            if let user = value["user_id"]?.stringValue { emit(.memberJoined(userID: user), room: roomID) }
        case "member.left":
            if let user = value["user_id"]?.stringValue { emit(.memberLeft(userID: user), room: roomID) }
        case "room.updated":
            if let room = try? ChatRoom(json: value["room"]) { emit(.roomUpdated(room), room: roomID) }
        case "room.deleted":
            emit(.roomDeleted, room: roomID)
            try? store.removeRoom(roomID)
        default:
            break
        }
    }

    private func handleUserEvent(_ name: String, data: JSONObject) {
        let value = JSONValue.object(data)
        switch name {
        case "room.added":
            guard let room = try? ChatRoom(json: value["room"]) else { return }
            try? store.saveRoom(RoomSummary(room: room, role: MemberRole(rawValue: value["role"]?.stringValue ?? "") ?? .member))
            if rooms[room.id] == nil { observe(rooms: [room.id]) }
            userHub.send(.roomAdded(room))
        case "room.removed":
            guard let id = value["room_id"]?.stringValue else { return }
            try? store.removeRoom(id)
            userHub.send(.roomRemoved(roomID: id))
        case "room.activity":
            if let message = try? ChatMessage(json: value["message"]) { userHub.send(.roomActivity(message)) }
        case "room.read":
            guard let id = value["room_id"]?.stringValue, case .number(let seqText)? = value["read_seq"], let seq = Int64(seqText) else { return }
            userHub.send(.roomRead(roomID: id, readSeq: seq, unreadCount: value["unread_count"]?.intValue ?? 0))
        default:
            break
        }
    }
}
