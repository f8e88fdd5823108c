import ParleyWireCore

/// Moderation (docs/moderation.md): mutes, bans, kicks and slow mode for a room's moderators
/// and higher, and flags for every member. Blocks: ParleyClient+Blocks.swift.
extension ParleyClient {
    /// Mutes a member of a lower role: they read but may not send or edit. `seconds` nil: until unmuted.
    public func mute(_ userID: String, in roomID: String, seconds: Int? = nil, reason: String? = nil) async throws(ParleyError) {
        _ = try await api.call("POST", ChatAPI.path("rooms", roomID, "mutes"), json: Self.restriction(userID, seconds, reason))
    }

    /// Lifts a mute.
    public func unmute(_ userID: String, in roomID: String) async throws(ParleyError) {
        _ = try await api.call("DELETE", ChatAPI.path("rooms", roomID, "mutes", userID))
    }

    /// Bans a user of a lower role: removed at once and kept out until unbanned (or `seconds` pass).
    public func ban(_ userID: String, from roomID: String, seconds: Int? = nil, reason: String? = nil) async throws(ParleyError) {
        _ = try await api.call("POST", ChatAPI.path("rooms", roomID, "bans"), json: Self.restriction(userID, seconds, reason))
    }

    /// Lifts a ban.
    public func unban(_ userID: String, from roomID: String) async throws(ParleyError) {
        _ = try await api.call("DELETE", ChatAPI.path("rooms", roomID, "bans", userID))
    }

    /// Removes a member of a lower role, who may join again.
    public func kick(_ userID: String, from roomID: String, reason: String? = nil) async throws(ParleyError) {
        var body: JSONObject = ["user_id": .string(userID)]
        if let reason { body["reason"] = .string(reason) }
        _ = try await api.call("POST", ChatAPI.path("rooms", roomID, "kicks"), json: .object(body))
    }

    /// Sets the room's slow mode: members may send one message per `seconds` (0: off).
    public func setSlowMode(_ seconds: Int, in roomID: String) async throws(ParleyError) {
        _ = try await api.call(
            "PATCH", ChatAPI.path("rooms", roomID, "moderation"), json: .object(["slow_mode_seconds": .number(String(seconds))]))
    }

    /// Flags a message for the room's moderators and the app to review.
    public func flag(_ messageID: Int64, in roomID: String, reason: String? = nil) async throws(ParleyError) {
        var body = JSONObject()
        if let reason { body["reason"] = .string(reason) }
        _ = try await api.call("POST", ChatAPI.path("rooms", roomID, "messages", String(messageID), "flags"), json: .object(body))
    }

    private static func restriction(_ userID: String, _ seconds: Int?, _ reason: String?) -> JSONValue {
        var body: JSONObject = ["user_id": .string(userID)]
        if let seconds { body["duration_seconds"] = .number(String(seconds)) }
        if let reason { body["reason"] = .string(reason) }
        return .object(body)
    }
}
