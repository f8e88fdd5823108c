import ParleyStore

/// Permission checks shared by the handlers. App-level calls pass every check.
extension ChatService {
    /// The room, or `room_not_found`.
    func loadRoom(_ context: ChatContext, _ id: String) async throws(ChatError) -> Room {
        try await storeCall(notFound: .roomNotFound) { try await store.room(app: context.appID, id: id) }
    }

    /// The calling user's membership (nil for app calls); `not_member` for outsiders.
    @discardableResult
    func requireMember(_ context: ChatContext, room: String) async throws(ChatError) -> Membership? {
        guard let user = context.caller.userID else {
            _ = try await loadRoom(context, room)
            return nil
        }
        let membership = try await storeCall(notFound: .roomNotFound) {
            try await store.membership(app: context.appID, room: room, user: user)
        }
        guard let membership else {
            _ = try await loadRoom(context, room)
            throw ChatError(.notMember, "you are not a member of room \(room)")
        }
        return membership
    }

    /// Like `requireMember` where the membership itself is not needed: a user found in the
    /// room's cached member list passes without a database read.
    func requireMemberAccess(_ context: ChatContext, room: String) async throws(ChatError) {
        if let user = context.caller.userID, case .all(let members)? = await knownMembers(context, room: room), members.ids.contains(user) {
            return
        }
        try await requireMember(context, room: room)
    }

    /// The room's members from the cache, else read (and cached); nil when the room cannot be
    /// read (the caller's own checks then give the precise error) or the cache is off.
    func knownMembers(_ context: ChatContext, room: String) async -> RoomMembersCache.Members? {
        let limit = configuration.limits.activityFanoutMembers
        guard limit > 0 else { return nil }
        let key = RoomMembersCache.Key(app: context.appID, room: room)
        let (cached, generation) = roomMembers.lookup(key)
        if let cached { return cached }
        guard let read = try? await store.members(app: context.appID, room: room, after: nil, limit: limit + 1) else { return nil }
        let members: RoomMembersCache.Members = read.count > limit ? .tooMany : .all(.init(read.map(\.userID)))
        roomMembers.store(key, members, readAt: generation)
        return members
    }

    /// Passes when `RoomPermissions` lets the caller do `action` (app calls, owners and admins
    /// for the default); `not_member` or `not_room_admin` otherwise. Returns the caller's role.
    @discardableResult
    func requireRoomAdmin(_ context: ChatContext, room: String, for action: RoomAction = .updateRoom) async throws(ChatError) -> MemberRole?
    {
        let role = try await requireMember(context, room: room)?.role
        try RoomPermissions.require(action, actor: role)
        return role
    }

    /// The room if the caller may see it: app calls, members, and anyone for public rooms.
    func requireVisibleRoom(_ context: ChatContext, _ id: String) async throws(ChatError) -> Room {
        let room = try await loadRoom(context, id)
        guard room.kind != .public, let user = context.caller.userID else { return room }
        let membership = try await storeCall(notFound: .roomNotFound) {
            try await store.membership(app: context.appID, room: id, user: user)
        }
        guard membership != nil else { throw ChatError(.notMember, "you are not a member of room \(id)") }
        return room
    }

    /// Passes for app calls and for `userID` themself.
    func requireSelfOrApp(_ context: ChatContext, _ userID: String) throws(ChatError) {
        guard let caller = context.caller.userID, caller != userID else { return }
        throw ChatError(.notSelf, "only \(userID) or the app may do this")
    }

    /// Passes for app calls only.
    func requireApp(_ context: ChatContext) throws(ChatError) {
        guard context.isApp else { throw ChatError(.appCredentialsRequired, "this needs the app key and secret") }
    }
}

extension ChatCall {
    /// A page size from `limit`: `fallback` when absent, 400 outside 1…`maximum`.
    func limit(fallback: Int, maximum: Int) throws(ChatError) -> Int {
        guard let text = request.queryValue("limit") else { return fallback }
        guard let value = Int(text), (1...maximum).contains(value) else {
            throw ChatError(.invalidParameter, "limit must be an integer from 1 to \(maximum)")
        }
        return value
    }

    /// A non-negative integer query parameter, if present.
    func sequenceParameter(_ name: String) throws(ChatError) -> Int64? {
        guard let text = request.queryValue(name) else { return nil }
        guard let value = Int64(text), value >= 0 else {
            throw ChatError(.invalidParameter, "\(name) must be a non-negative integer")
        }
        return value
    }

    /// A positive integer path parameter (message ids).
    func idParameter(_ name: String) throws(ChatError) -> Int64 {
        guard let value = Int64(parameter(name)), value > 0 else {
            throw ChatError(.invalidParameter, "\(name) must be a positive integer")
        }
        return value
    }
}
