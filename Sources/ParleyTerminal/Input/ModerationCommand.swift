/// A moderator's slash command on the open room (`/mute`, `/ban`, `/kick`, `/slow`).
public enum ModerationCommand: Sendable, Equatable {
    /// `/mute USER [MINUTES]`: the user reads but may not send (until unmuted, or for MINUTES).
    case mute(userID: String, minutes: Int?)
    /// `/ban USER`: remove the user and keep them out.
    case ban(userID: String)
    /// `/kick USER`: remove the user, who may join again.
    case kick(userID: String)
    /// `/slow N`: members may send one message per N seconds (0: off).
    case slow(seconds: Int)

    /// The commands' help lines.
    static let helpLines: [String] = [
        "/mute USER [MINUTES]      mute someone here (moderators)",
        "/ban USER  /kick USER     ban or kick someone (moderators)",
        "/slow N                   one message per N seconds, 0 off (moderators)"
    ]

    /// Parses the words after `/name`; nil when `name` is not a moderation command.
    static func parse(_ name: String, _ words: [String]) -> ChatInput? {
        switch name {
        case "mute":
            guard (1...2).contains(words.count) else { return .invalid("usage: /mute USER [MINUTES]") }
            guard words.count == 2 else { return .moderate(.mute(userID: words[0], minutes: nil)) }
            guard let minutes = Int(words[1]), minutes > 0 else { return .invalid("usage: /mute USER [MINUTES] (minutes > 0)") }
            return .moderate(.mute(userID: words[0], minutes: minutes))
        case "ban":
            return words.count == 1 ? .moderate(.ban(userID: words[0])) : .invalid("usage: /ban USER")
        case "kick":
            return words.count == 1 ? .moderate(.kick(userID: words[0])) : .invalid("usage: /kick USER")
        case "slow":
            guard words.count == 1, let seconds = Int(words[0]), (0...86_400).contains(seconds) else {
                return .invalid("usage: /slow SECONDS (0 turns slow mode off)")
            }
            return .moderate(.slow(seconds: seconds))
        default:
            return nil
        }
    }
}
