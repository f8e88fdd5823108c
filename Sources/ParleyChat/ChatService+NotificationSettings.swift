import ParleyStore
import ParleyWire

/// `GET`/`PUT /v1/rooms/{room_id}/notifications`: the caller's notification level for a room
/// (`all`, `mentions` or `none`), which the notification hook follows.
extension ChatService {
    func getNotificationSettings(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        let room = call.parameter("room_id")
        let settings = try settingsStore()
        let level = try await storeCall(notFound: .roomNotFound) {
            try await settings.notificationLevel(app: context.appID, room: room, user: user)
        }
        return .json(Self.notificationJSON(room: room, user: user, level: level))
    }

    func setNotificationSettings(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        let room = call.parameter("room_id")
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let text = try body.string("level")
        guard let level = NotificationLevel(rawValue: text) else {
            throw ChatError(.invalidRequest, "level must be all, mentions or none")
        }
        let settings = try settingsStore()
        try await storeCall(notFound: .roomNotFound) {
            try await settings.setNotificationLevel(app: context.appID, room: room, user: user, level: level)
        }
        return .json(Self.notificationJSON(room: room, user: user, level: level))
    }

    private func settingsStore() throws(ChatError) -> any NotificationSettingsStore {
        guard let settings = store as? any NotificationSettingsStore else {
            throw ChatError(.unavailable, "this server's store keeps no notification settings")
        }
        return settings
    }

    static func notificationJSON(room: String, user: String, level: NotificationLevel) -> JSONValue {
        .object(["room_id": .string(room), "user_id": .string(user), "level": .string(level.rawValue)])
    }
}
