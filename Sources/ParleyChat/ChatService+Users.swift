import ParleyStore
import ParleyWire

/// Users: create, list, get, update, delete; the signed-in user and their room list.
extension ChatService {
    func createUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let id: String
        switch context.caller {
        case .app:
            // The schema can't make `id` required for one kind of caller only: a rule, not a shape (422).
            guard let given = try body.optionalString("id") else {
                throw ChatError(.validationFailed, "app-level calls name the new user's id")
            }
            id = given
        case .user(let caller):
            // A user may create only themself (the app's backend minted their token first).
            id = try body.optionalString("id") ?? caller
            guard id == caller else { throw ChatError(.notSelf, "a user token may create only its own user") }
        }
        try Self.validateUserID(id)
        let name = try body.string("name")
        let avatar = try body.patchLink("avatar_url").applied(to: nil)
        let custom = try body.customData().applied(to: nil)
        let user = try await storeCall(notFound: .userNotFound) {
            try await store.createUser(app: context.appID, NewUser(id: id, name: name, avatarURL: avatar, customData: custom))
        }
        return .json(user.json, status: .created)
    }

    func listUsers(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let limit = try call.limit(fallback: configuration.limits.maxPage, maximum: configuration.limits.maxPage)
        let after = call.request.queryValue("after")
        // The directory a user sees is the people they share a room with (and themself); only
        // the app's backend lists everyone.
        let users = try await storeCall(notFound: .userNotFound) {
            switch context.caller {
            case .app: try await store.users(app: context.appID, after: after, limit: limit)
            case .user(let me): try await store.users(app: context.appID, sharingRoomsWith: me, after: after, limit: limit)
            }
        }
        let next: JSONValue = users.count == limit ? .optional(users.last?.id) : .null
        return .json(["users": .array(users.map(\.json)), "next_after": next])
    }

    func getUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = call.parameter("user_id")
        let user = try await storeCall(notFound: .userNotFound) { try await store.user(app: context.appID, id: id) }
        return .json(user.json)
    }

    func getMe(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = try context.requireUser()
        let user = try await storeCall(notFound: .userNotFound) { try await store.user(app: context.appID, id: id) }
        return .json(user.json)
    }

    func updateUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = call.parameter("user_id")
        try requireSelfOrApp(context, id)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        var patch = UserPatch(avatarURL: try body.patchLink("avatar_url"), customData: try body.customData())
        switch try body.patchString("name") {
        case .keep: break
        case .set(nil): throw ChatError(.invalidRequest, "name cannot be removed")
        case .set(let name?): patch.name = .set(name)
        }
        if case .set(let name) = patch.name, name.isEmpty { throw ChatError(.validationFailed, "name must not be empty") }
        let user = try await storeCall(notFound: .userNotFound) { try await store.updateUser(app: context.appID, id: id, patch) }
        return .json(user.json)
    }

    func deleteUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try requireApp(context)
        let id = call.parameter("user_id")
        // The rooms are read first: after the delete the memberships are gone.
        let rooms = try await storeCall(notFound: .userNotFound) {
            try await store.roomSummaries(app: context.appID, user: id, limit: configuration.limits.presenceRooms)
        }
        _ = try await membershipCall(notFound: .userNotFound) { try await store.deleteUser(app: context.appID, id: id) }
        await recordDeletedUser(app: context.appID, user: id)
        await publish(
            context,
            rooms.map { summary in
                ChatEvent(
                    channel: ChatEvent.roomChannel(summary.room.id), name: "member.left",
                    data: .object(["room_id": .string(summary.room.id), "user_id": .string(id)]))
            })
        endAccess(AccessEnding(app: context.appID, room: nil, user: id, reason: .userDeleted))
        return .noContent
    }

    func listMyRooms(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        let limit = try call.limit(fallback: 200, maximum: 1_000)
        let summaries = try await storeCall(notFound: .userNotFound) {
            try await store.roomSummaries(app: context.appID, user: user, limit: limit)
        }
        return .json(["rooms": .array(summaries.map(\.json))])
    }

    /// User ids become channel names (`#server-to-user-{id}`), so they use channel-name characters.
    static func validateUserID(_ id: String) throws(ChatError) {
        guard !id.isEmpty, id.utf8.count <= 150, id.utf8.allSatisfy(ParleyWire.PusherChannel.isNameByte) else {
            throw ChatError(.validationFailed, "a user id has 1-150 characters from [A-Za-z0-9_-=@,.;]")
        }
    }
}
