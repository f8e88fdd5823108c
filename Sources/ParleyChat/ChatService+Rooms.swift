import ParleyStore
import ParleyWire

/// Rooms: create (public, private, direct), list public ones, get, update, delete, join, leave.
extension ChatService {
    func createRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.rooms, context)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let id = try body.optionalString("id")
        if let id { try Self.validateRoomID(id) }
        let kindText = try body.optionalString("kind") ?? RoomKind.private.rawValue
        guard let kind = RoomKind(rawValue: kindText), kind != .direct else {
            throw ChatError(.invalidRequest, "kind must be public or private (direct rooms: POST /v1/rooms/direct)")
        }
        let creator: String?
        switch context.caller {
        case .user(let user): creator = user
        case .app: creator = try body.optionalString("creator_id")
        }
        let members = try body.stringArray("member_ids").filter { $0 != creator }
        let newRoom = NewRoom(
            id: id, kind: kind, name: try body.optionalString("name"),
            customData: try body.customData().applied(to: nil), creatorID: creator, memberIDs: members)
        let room = try await membershipCall(notFound: .userNotFound) { try await store.createRoom(app: context.appID, newRoom) }
        var events: [ChatEvent] = []
        if let creator { events.append(roomAdded(room, user: creator, role: .admin)) }
        events += Set(members).sorted().map { roomAdded(room, user: $0, role: .member) }
        await publish(context, events)
        return .json(room.json, status: .created)
    }

    func openDirectRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.rooms, context)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let pair: (String, String)
        switch context.caller {
        case .user(let user):
            if let other = try body.optionalString("user_id") {
                pair = (user, other)
            } else {
                // `user_ids` as an app sends it is fine too, as long as the caller is one of the two.
                let ids = try body.stringArray("user_ids")
                guard ids.count == 2 else { throw ChatError(.invalidRequest, "send user_id (the other user) or user_ids (two users)") }
                guard ids.contains(user) else { throw ChatError(.notSelf, "a user may open only their own direct rooms") }
                pair = (user, ids[0] == user ? ids[1] : ids[0])
            }
        case .app:
            let ids = try body.stringArray("user_ids")
            guard !ids.isEmpty else { throw ChatError(.validationFailed, "app-level calls name both users in user_ids") }
            guard ids.count == 2 else { throw ChatError(.invalidRequest, "user_ids must name two users") }
            pair = (ids[0], ids[1])
        }
        guard pair.0 != pair.1 else { throw ChatError(.validationFailed, "a direct room needs two different users") }
        if !context.isApp { try await refuseBlocked(context, pair.0, pair.1) }
        let result = try await membershipCall(notFound: .userNotFound) {
            try await store.createDirectRoom(app: context.appID, between: pair.0, and: pair.1)
        }
        if result.created {
            await publish(context, result.room.directUserIDs.map { roomAdded(result.room, user: $0, role: .member) })
        }
        return .json(result.room.json, status: result.created ? .created : .ok)
    }

    func listPublicRooms(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let limit = try call.limit(fallback: configuration.limits.maxPage, maximum: configuration.limits.maxPage)
        let after = call.request.queryValue("after")
        let rooms = try await storeCall(notFound: .roomNotFound) {
            try await store.publicRooms(app: context.appID, after: after, limit: limit)
        }
        let next: JSONValue = rooms.count == limit ? .optional(rooms.last?.id) : .null
        return .json(["rooms": .array(rooms.map(\.json)), "next_after": next])
    }

    func getRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        return .json((try await requireVisibleRoom(context, call.parameter("room_id"))).json)
    }

    func updateRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.rooms, context)
        let id = call.parameter("room_id")
        try await requireRoomAdmin(context, room: id)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        var patch = RoomPatch(name: try body.patchString("name"), customData: try body.customData())
        if let kindText = try body.optionalString("kind") {
            guard let kind = RoomKind(rawValue: kindText), kind != .direct else {
                throw ChatError(.invalidRequest, "kind must be public or private")
            }
            patch.kind = .set(kind)
        }
        let room = try await storeCall(notFound: .roomNotFound) { try await store.updateRoom(app: context.appID, id: id, patch) }
        await publish(
            context,
            [
                ChatEvent(
                    channel: ChatEvent.roomChannel(id), name: "room.updated",
                    data: .object(["room_id": .string(id), "room": room.json]))
            ])
        return .json(room.json)
    }

    func deleteRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.rooms, context)
        let id = call.parameter("room_id")
        try await requireRoomAdmin(context, room: id, for: .deleteRoom)
        let deleted = try await membershipCall(notFound: .roomNotFound) { try await store.deleteRoom(app: context.appID, id: id) }
        for attachment in deleted.attachments { files.remove(attachment.storagePath) }
        var events = [
            ChatEvent(
                channel: ChatEvent.roomChannel(id), name: "room.deleted",
                data: .object(["room_id": .string(id), "seq": .int64(deleted.room.lastSeq)]))
        ]
        events += deleted.memberIDs.map { roomRemoved(id, user: $0) }
        await publish(context, events)
        endAccess(AccessEnding(app: context.appID, room: id, user: nil, reason: .roomDeleted))
        return .noContent
    }

    func joinRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let user = try context.requireUser()
        let id = call.parameter("room_id")
        let room = try await loadRoom(context, id)
        guard room.kind == .public else {
            // Members of a private room may "join" it again harmlessly; outsiders may not.
            if let membership = try await storeCall(
                notFound: .roomNotFound, { try await store.membership(app: context.appID, room: id, user: user) })
            {
                return .json(membership.json)
            }
            throw ChatError(.roomNotJoinable, "room \(id) is \(room.kind.rawValue): members are added by its admins")
        }
        try await refuseBanned(context, room: id, user: user)
        let change = try await membershipCall(notFound: .roomNotFound) {
            try await store.addMember(app: context.appID, room: id, user: user, role: .member)
        }
        if change.changed { await publish(context, memberJoined(change.membership, room: room)) }
        return .json(change.membership.json, status: change.changed ? .created : .ok)
    }

    func leaveRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let user = try context.requireUser()
        let id = call.parameter("room_id")
        try await requireMember(context, room: id)
        let removed = try await membershipCall(notFound: .roomNotFound) {
            try await store.removeMember(app: context.appID, room: id, user: user)
        }
        if removed {
            await publish(context, memberLeft(user, room: id))
            endAccess(AccessEnding(app: context.appID, room: id, user: user, reason: .left))
        }
        return .noContent
    }

    // MARK: Events

    func roomAdded(_ room: Room, user: String, role: MemberRole) -> ChatEvent {
        ChatEvent(
            channel: ChatEvent.userChannel(user), name: "room.added",
            data: .object(["room_id": .string(room.id), "room": room.json, "role": .string(role.rawValue)]))
    }

    func roomRemoved(_ roomID: String, user: String) -> ChatEvent {
        ChatEvent(channel: ChatEvent.userChannel(user), name: "room.removed", data: .object(["room_id": .string(roomID)]))
    }

    func memberJoined(_ membership: Membership, room: Room) -> [ChatEvent] {
        [
            ChatEvent(
                channel: ChatEvent.roomChannel(room.id), name: "member.joined",
                data: .object([
                    "room_id": .string(room.id), "user_id": .string(membership.userID),
                    "membership": membership.json
                ])),
            roomAdded(room, user: membership.userID, role: membership.role)
        ]
    }

    func memberLeft(_ user: String, room: String) -> [ChatEvent] {
        [
            ChatEvent(
                channel: ChatEvent.roomChannel(room), name: "member.left",
                data: .object(["room_id": .string(room), "user_id": .string(user)])),
            roomRemoved(room, user: user)
        ]
    }

    /// Room ids become channel names (`private-room-{id}`), so they use channel-name characters.
    static func validateRoomID(_ id: String) throws(ChatError) {
        guard !id.isEmpty, id.utf8.count <= 150, id.utf8.allSatisfy(PusherChannel.isNameByte) else {
            throw ChatError(.validationFailed, "a room id has 1-150 characters from [A-Za-z0-9_-=@,.;]")
        }
    }
}
