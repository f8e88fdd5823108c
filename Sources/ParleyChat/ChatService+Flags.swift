import ParleyStore
import ParleyWire

/// Flags: any member reports a message; app-level calls review every room's flags, room
/// moderators their room's (`room_id`); resolving is audited.
extension ChatService {
    func flagMessage(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        try admit(.reactions, context, user: user)
        let room = call.parameter("room_id"), id = try call.idParameter("message_id")
        let actor = try await requireMember(context, room: room)?.role
        try RoomPermissions.require(.flagMessage, actor: actor)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes, emptyAllowed: true)
        let reason = try Self.reason(body)
        let result = try await storeCall(notFound: .messageNotFound) {
            try await store.flagMessage(app: context.appID, room: room, message: id, flagger: user, reason: reason)
        }
        let json = ModerationJSON.flag(result.flag)
        // A repeated flag by the same member is the same report: the app hears of it once.
        if result.created { await deliverChatHookEvent(context, kind: "user.flagged", data: json) }
        return .json(json, status: result.created ? .created : .ok)
    }

    func listFlags(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.request.queryValue("room_id")
        if let room {
            let actor = try await requireMember(context, room: room)?.role
            try RoomPermissions.require(.reviewFlags, actor: actor)
        } else if !context.isApp {
            throw ChatError(.appCredentialsRequired, "all of the app's flags need the app key and secret; room moderators pass room_id")
        }
        let stateText = call.request.queryValue("state") ?? MessageFlag.State.open.rawValue
        guard let state = MessageFlag.State(rawValue: stateText) else {
            throw ChatError(.invalidParameter, "state must be open, resolved or all")
        }
        let limit = try call.limit(fallback: 50, maximum: configuration.limits.maxPage)
        let after = try call.sequenceParameter("after")
        let flags = try await storeCall(notFound: .roomNotFound) {
            try await store.flags(app: context.appID, room: room, state: state, after: after, limit: limit)
        }
        let next: JSONValue = flags.count == limit ? .optional(flags.last?.id) : .null
        return .json(["flags": .array(flags.map(ModerationJSON.flag)), "next_after": next])
    }

    func resolveFlag(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = try call.idParameter("flag_id")
        let flag = try await storeCall(notFound: .flagNotFound) { try await store.flag(app: context.appID, id: id) }
        if let user = context.caller.userID {
            let membership = try await storeCall(notFound: .flagNotFound) {
                try await store.membership(app: context.appID, room: flag.roomID, user: user)
            }
            // Outsiders learn nothing of other rooms' flags.
            guard let membership else { throw ChatError(.flagNotFound, "flag \(id) not found") }
            try RoomPermissions.require(.reviewFlags, actor: membership.role)
        }
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes, emptyAllowed: true)
        let resolution = try body.optionalString("resolution")
        if let resolution, resolution.count > Self.maxReasonLength {
            throw ChatError(.validationFailed, "a resolution has at most \(Self.maxReasonLength) characters")
        }
        let audit = NewAuditEntry(
            action: "flag_resolved", actorID: context.caller.userID, targetUserID: flag.flaggerID, targetMessageID: flag.messageID,
            reason: resolution, detail: ModerationJSON.detail(["flag_id": .int64(id)]))
        let resolved = try await storeCall(notFound: .flagNotFound) {
            try await store.resolveFlag(app: context.appID, id: id, resolution: resolution, audit: audit)
        }
        return .json(ModerationJSON.flag(resolved))
    }
}
