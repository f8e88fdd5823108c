import ParleyStore
import ParleyWire

/// Moderation: mutes, bans, kicks, slow mode, the audit log (docs/moderation.md). Every check
/// goes through `RoomPermissions`; every action is audited in the store's transaction.
extension ChatService {
    /// The longest reason a moderator may give.
    static let maxReasonLength = 500

    func muteMember(_ call: ChatCall) async throws -> ChatResponse {
        try await restrict(call, kind: .mute)
    }

    func banMember(_ call: ChatCall) async throws -> ChatResponse {
        try await restrict(call, kind: .ban)
    }

    func unmuteMember(_ call: ChatCall) async throws -> ChatResponse {
        try await lift(call, kind: .mute)
    }

    func unbanMember(_ call: ChatCall) async throws -> ChatResponse {
        try await lift(call, kind: .ban)
    }

    private func restrict(_ call: ChatCall, kind: RoomRestriction.Kind) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let room = call.parameter("room_id")
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let user = try body.string("user_id")
        let reason = try Self.reason(body)
        let until = try restrictionEnd(body)
        _ = try await authorizeModeration(kind == .ban ? .ban : .mute, context, room: room, target: user)
        let restriction = RoomRestriction(
            roomID: room, userID: user, kind: kind, until: until, reason: reason, actorID: context.caller.userID, createdAt: clock.now())
        var detail: JSONObject = [:]
        if let until { detail["until"] = .int64(until) }
        let audit = NewAuditEntry(
            action: kind.rawValue, actorID: context.caller.userID, targetUserID: user, reason: reason,
            detail: detail.isEmpty ? nil : ModerationJSON.detail(detail))
        let removed = try await moderationCall(notFound: .roomNotFound) {
            try await store.restrict(app: context.appID, restriction, audit: audit)
        }
        let data = ModerationJSON.restriction(restriction)
        var events: [ChatEvent] = []
        if removed { events += memberLeft(user, room: room) }
        events.append(ChatEvent(channel: ChatEvent.roomChannel(room), name: "member.\(kind == .ban ? "banned" : "muted")", data: data))
        events.append(ChatEvent(channel: ChatEvent.userChannel(user), name: "room.\(kind == .ban ? "banned" : "muted")", data: data))
        await publish(context, events)
        if removed { endAccess(AccessEnding(app: context.appID, room: room, user: user, reason: .banned)) }
        return .json(data, status: .created)
    }

    private func lift(_ call: ChatCall, kind: RoomRestriction.Kind) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let room = call.parameter("room_id"), user = call.parameter("user_id")
        _ = try await authorizeModeration(kind == .ban ? .unban : .unmute, context, room: room, target: user)
        let audit = NewAuditEntry(action: kind == .ban ? "unban" : "unmute", actorID: context.caller.userID, targetUserID: user)
        let lifted = try await moderationCall(notFound: .roomNotFound) {
            try await store.liftRestriction(app: context.appID, room: room, user: user, kind: kind, audit: audit)
        }
        if lifted {
            let data: JSONValue = .object(["room_id": .string(room), "user_id": .string(user), "kind": .string(kind.rawValue)])
            let name = kind == .ban ? "unbanned" : "unmuted"
            await publish(
                context,
                [
                    ChatEvent(channel: ChatEvent.roomChannel(room), name: "member.\(name)", data: data),
                    ChatEvent(channel: ChatEvent.userChannel(user), name: "room.\(name)", data: data)
                ])
        }
        return .noContent
    }

    func kickMember(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let room = call.parameter("room_id")
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let user = try body.string("user_id")
        let reason = try Self.reason(body)
        _ = try await authorizeModeration(.kick, context, room: room, target: user)
        let audit = NewAuditEntry(action: "kick", actorID: context.caller.userID, targetUserID: user, reason: reason)
        let removed = try await moderationCall(notFound: .roomNotFound) {
            try await store.kick(app: context.appID, room: room, user: user, audit: audit)
        }
        guard removed else { throw ChatError(.notMember, "user \(user) is not a member of room \(room)") }
        let data: JSONValue = .object(["room_id": .string(room), "user_id": .string(user), "reason": .optional(reason)])
        await publish(
            context,
            memberLeft(user, room: room) + [
                ChatEvent(channel: ChatEvent.roomChannel(room), name: "member.kicked", data: data),
                ChatEvent(channel: ChatEvent.userChannel(user), name: "room.kicked", data: data)
            ])
        endAccess(AccessEnding(app: context.appID, room: room, user: user, reason: .kicked))
        return .noContent
    }

    func getModeration(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.parameter("room_id")
        let actor = try await requireMember(context, room: room)?.role
        try RoomPermissions.require(.readModeration, actor: actor)
        return .json(moderationJSON(room, try await moderationState(context, room: room)))
    }

    func updateModeration(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.memberships, context)
        let room = call.parameter("room_id")
        let actor = try await requireMember(context, room: room)?.role
        try RoomPermissions.require(.setSlowMode, actor: actor)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        guard let seconds = try body.optionalInt64("slow_mode_seconds") else {
            throw ChatError(.invalidRequest, "send slow_mode_seconds")
        }
        guard (0...86_400).contains(seconds) else { throw ChatError(.validationFailed, "slow_mode_seconds must be 0-86400") }
        let audit = NewAuditEntry(
            action: "slow_mode", actorID: context.caller.userID, detail: ModerationJSON.detail(["slow_mode_seconds": .int64(seconds)]))
        let previous = try await moderationCall(notFound: .roomNotFound) {
            try await store.setSlowMode(app: context.appID, room: room, seconds: Int(seconds), audit: audit)
        }
        let state = try await moderationState(context, room: room)
        if previous != Int(seconds) {
            await publish(
                context,
                [
                    ChatEvent(
                        channel: ChatEvent.roomChannel(room), name: "room.moderation_updated",
                        data: .object(["room_id": .string(room), "slow_mode_seconds": .int64(seconds)]))
                ])
        }
        return .json(moderationJSON(room, state))
    }

    func auditLog(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.parameter("room_id")
        let actor = try await requireMember(context, room: room)?.role
        try RoomPermissions.require(.readAudit, actor: actor)
        let limit = try call.limit(fallback: 50, maximum: configuration.limits.maxPage)
        let before = try call.sequenceParameter("before")
        let entries = try await storeCall(notFound: .roomNotFound) {
            try await store.auditLog(app: context.appID, room: room, before: before, limit: limit)
        }
        let next: JSONValue = entries.count == limit ? .optional(entries.last?.id) : .null
        return .json(["entries": .array(entries.map(ModerationJSON.audit)), "next_before": next])
    }

    // MARK: Checks shared with the other handlers

    /// The caller's right to `action` on `target` in `room`; returns the target's membership.
    /// Direct rooms have no moderation: their two users are fixed.
    func authorizeModeration(
        _ action: RoomAction, _ context: ChatContext, room: String, target: String
    ) async throws(ChatError) -> Membership? {
        let actor = try await requireMember(context, room: room)?.role
        let loaded = try await loadRoom(context, room)
        guard loaded.kind != .direct else { throw ChatError(.directRoomFixed, "direct rooms have no moderation") }
        let membership = try await storeCall(notFound: .roomNotFound) {
            try await store.membership(app: context.appID, room: room, user: target)
        }
        try RoomPermissions.require(action, actor: actor, target: membership?.role)
        return membership
    }

    /// The room's moderation state, cached.
    func moderationState(_ context: ChatContext, room: String) async throws(ChatError) -> RoomModeration {
        let key = ModerationCache.Key(app: context.appID, room: room)
        let (cached, generation) = moderationCache.lookup(key)
        if let cached { return cached }
        let read = try await storeCall(notFound: .roomNotFound) { try await store.moderation(app: context.appID, room: room) }
        moderationCache.store(key, read, readAt: generation)
        return read
    }

    /// `banned` while `user` is banned from `room` (joins and adds, the app's included).
    func refuseBanned(_ context: ChatContext, room: String, user: String) async throws(ChatError) {
        guard let ban = try await moderationState(context, room: room).active(.ban, user: user, at: clock.now()) else { return }
        let end = ban.until.map { " until \($0)" } ?? ""
        throw ChatError(.banned, "user \(user) is banned from room \(room)\(end); a moderator may unban them")
    }

    /// `muted` while `user` is muted in `room`.
    func refuseMuted(_ context: ChatContext, room: String, user: String) async throws(ChatError) {
        guard (try await moderationState(context, room: room).active(.mute, user: user, at: clock.now())) != nil else { return }
        throw ChatError(.muted, "you are muted in room \(room)")
    }

    /// Mute and slow mode for a member's send. Returns the pace the store checks again and
    /// records in the send's transaction (so every node paces alike); refusing here already,
    /// from the member's stored last send, keeps an early send away from the app's hook.
    /// App-level sends pass: the app's backend is trusted.
    func admitModeratedSend(_ context: ChatContext, room: String, sender: String) async throws(ChatError) -> SendPace? {
        guard !context.isApp else { return nil }
        let state = try await moderationState(context, room: room)
        let now = clock.now()
        if state.active(.mute, user: sender, at: now) != nil { throw ChatError(.muted, "you are muted in room \(room)") }
        if state.directUserIDs.count == 2 { try await refuseBlocked(context, state.directUserIDs[0], state.directUserIDs[1]) }
        guard state.slowModeSeconds > 0 else { return nil }
        let standing = try await storeCall(notFound: .roomNotFound) {
            try await store.paceStanding(app: context.appID, room: room, user: sender)
        }
        guard let standing else { return nil }  // the store answers not_member
        guard case .denied = RoomPermissions.decide(.bypassSlowMode, actor: standing.role) else { return nil }
        let pace = SendPace(intervalMilliseconds: Int64(state.slowModeSeconds) * 1000, now: now)
        if let wait = pace.wait(after: standing.lastSentAt) {
            throw ChatError(
                .slowMode, "room \(room) is in slow mode: one message per \(state.slowModeSeconds) s; retry in \(wait) s",
                headers: ["Retry-After": String(wait)])
        }
        return pace
    }

    /// Runs a moderation write: the member and moderation caches forget every room afterwards.
    func moderationCall<T: Sendable>(notFound: ChatErrorCode, _ body: () async throws -> T) async throws(ChatError) -> T {
        defer { moderationCache.invalidate() }
        return try await membershipCall(notFound: notFound, body)
    }

    /// An optional `reason` of at most `maxReasonLength` characters.
    static func reason(_ body: JSONBody) throws(ChatError) -> String? {
        let reason = try body.optionalString("reason")
        if let reason, reason.count > maxReasonLength {
            throw ChatError(.validationFailed, "a reason has at most \(maxReasonLength) characters")
        }
        return reason
    }

    /// `until` (milliseconds since the epoch, in the future) or `duration_seconds` (positive); nil: no end.
    private func restrictionEnd(_ body: JSONBody) throws(ChatError) -> Int64? {
        let until = try body.optionalInt64("until"), duration = try body.optionalInt64("duration_seconds")
        let now = clock.now()
        switch (until, duration) {
        case (nil, nil): return nil
        case (let until?, nil):
            guard until > now else { throw ChatError(.validationFailed, "until must lie in the future (milliseconds since the epoch)") }
            return until
        case (nil, let duration?):
            guard (1...(10 * 365 * 86_400)).contains(duration) else {
                throw ChatError(.validationFailed, "duration_seconds must be from 1 to 315360000")
            }
            return now + duration * 1000
        default:
            // Each field alone is valid: a rule the schema can't state, so 422.
            throw ChatError(.validationFailed, "send until or duration_seconds, not both")
        }
    }

    private func moderationJSON(_ room: String, _ state: RoomModeration) -> JSONValue {
        let now = clock.now()
        let active = state.restrictions.filter { $0.isActive(at: now) }
        return .object([
            "room_id": .string(room), "slow_mode_seconds": .int(state.slowModeSeconds),
            "mutes": .array(active.filter { $0.kind == .mute }.map(ModerationJSON.restriction)),
            "bans": .array(active.filter { $0.kind == .ban }.map(ModerationJSON.restriction))
        ])
    }
}
