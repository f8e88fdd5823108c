import ParleyStore
import ParleyWire

/// Members: list, add, change role, remove (room admins, app calls; anyone may remove themself).
extension ChatService {
    func listMembers(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = call.parameter("room_id")
        _ = try await requireVisibleRoom(context, id)
        let limit = try call.limit(fallback: configuration.limits.maxPage, maximum: configuration.limits.maxPage)
        let after = call.request.queryValue("after")
        let members = try await storeCall(notFound: .roomNotFound) {
            try await store.members(app: context.appID, room: id, after: after, limit: limit)
        }
        let next: JSONValue = members.count == limit ? .optional(members.last?.userID) : .null
        return .json(["members": .array(members.map(\.json)), "next_after": next])
    }

    func addMember(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let id = call.parameter("room_id")
        let actor = try await requireRoomAdmin(context, room: id, for: .addMember)
        let room = try await loadRoom(context, id)
        guard room.kind != .direct else { throw ChatError(.directRoomFixed, "direct rooms have exactly their two users") }
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let user = try body.string("user_id")
        let role = try body.role(fallback: .member)
        try RoomPermissions.require(.changeRole, actor: actor, grant: role)
        try await refuseBanned(context, room: id, user: user)
        let change = try await membershipCall(notFound: .userNotFound) {
            try await store.addMember(app: context.appID, room: id, user: user, role: role)
        }
        if change.changed { await publish(context, memberJoined(change.membership, room: room)) }
        return .json(change.membership.json, status: change.changed ? .created : .ok)
    }

    func updateMember(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let id = call.parameter("room_id"), user = call.parameter("user_id")
        let actor = try await requireRoomAdmin(context, room: id, for: .changeRole)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let role = try body.role(fallback: nil)
        let current = try await storeCall(notFound: .roomNotFound) { try await store.membership(app: context.appID, room: id, user: user) }
        try RoomPermissions.require(.changeRole, actor: actor, target: current?.role, grant: role)
        let actorID = context.caller.userID
        // The store records it in the role change's transaction, with the role it replaced there.
        let audit: @Sendable (MemberRole) -> NewAuditEntry = { from in
            NewAuditEntry(
                action: "role_changed", actorID: actorID, targetUserID: user,
                detail: ModerationJSON.detail(["from": .string(from.rawValue), "to": .string(role.rawValue)]))
        }
        let change = try await membershipCall(notFound: .roomNotFound) {
            try await store.setRole(app: context.appID, room: id, user: user, role: role, audit: audit)
        }
        if change.changed {
            await publish(
                context,
                [
                    ChatEvent(
                        channel: ChatEvent.roomChannel(id), name: "member.updated",
                        data: .object([
                            "room_id": .string(id), "user_id": .string(user),
                            "membership": change.membership.json
                        ]))
                ])
        }
        return .json(change.membership.json)
    }

    func removeMember(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let id = call.parameter("room_id"), user = call.parameter("user_id")
        if context.caller.userID == user {
            try await requireMember(context, room: id)
        } else {
            let actor = try await requireRoomAdmin(context, room: id, for: .removeMember)
            let target = try await storeCall(notFound: .roomNotFound) {
                try await store.membership(app: context.appID, room: id, user: user)
            }
            try RoomPermissions.require(.removeMember, actor: actor, target: target?.role)
            let room = try await loadRoom(context, id)
            guard room.kind != .direct else { throw ChatError(.directRoomFixed, "direct rooms have exactly their two users") }
        }
        let removed = try await membershipCall(notFound: .roomNotFound) {
            try await store.removeMember(app: context.appID, room: id, user: user)
        }
        if removed {
            await publish(context, memberLeft(user, room: id))
            endAccess(
                AccessEnding(app: context.appID, room: id, user: user, reason: context.caller.userID == user ? .left : .memberRemoved))
        }
        return .noContent
    }
}
