import ParleyKit

/// The moderators' commands; the server decides who may (`not_room_moderator`, `target_outranks`).
extension ChatController {
    func moderate(_ command: ModerationCommand, in roomID: String) async throws(ParleyError) {
        switch command {
        case .mute(let user, let minutes):
            try await client.mute(user, in: roomID, seconds: minutes.map { $0 * 60 })
            state.notice = "Muted \(user)" + (minutes.map { " for \($0) min" } ?? "")
        case .ban(let user):
            try await client.ban(user, from: roomID)
            state.notice = "Banned \(user)"
        case .kick(let user):
            try await client.kick(user, from: roomID)
            state.notice = "Kicked \(user)"
        case .slow(let seconds):
            try await client.setSlowMode(seconds, in: roomID)
            state.notice = seconds == 0 ? "Slow mode off" : "Slow mode: one message per \(seconds) s"
        }
    }
}
