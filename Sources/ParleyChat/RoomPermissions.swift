import ParleyStore

/// Who may do what in a room: the one place the permission table of docs/moderation.md lives.
///
/// An action needs a minimum role. Actions on another member also compare ranks: moderation
/// (mute, unmute, kick, ban, unban) needs a strictly higher role than the target's, so peers
/// cannot moderate each other; management (remove, change role) needs at least the target's
/// role, and a role can be granted only up to one's own. App-level calls (actor nil) may do
/// everything.
public enum RoomPermissions {
    /// The answer to one question.
    public enum Decision: Sendable, Hashable {
        /// Allowed.
        case allowed
        /// Refused with this code (`not_room_moderator`, `not_room_admin`, `target_outranks`).
        case denied(ChatErrorCode)
    }

    /// The lowest role that may do `action`.
    public static func minimumRole(_ action: RoomAction) -> MemberRole {
        switch action {
        case .read, .sendMessage, .editOwnMessage, .deleteOwnMessage, .react, .flagMessage:
            .member
        case .bypassSlowMode, .deleteAnyMessage, .mute, .unmute, .kick, .ban, .unban, .setSlowMode, .reviewFlags, .readModeration:
            .moderator
        case .readAudit, .addMember, .removeMember, .changeRole, .updateRoom, .deleteRoom:
            .admin
        }
    }

    /// Whether `actor` may do `action` to a member with role `target` (nil: not a member, ranked
    /// as a member), granting `grant` for role changes. `actor` nil is an app-level call.
    public static func decide(
        _ action: RoomAction, actor: MemberRole?, target: MemberRole? = nil, grant: MemberRole? = nil
    ) -> Decision {
        guard let actor else { return .allowed }
        let minimum = minimumRole(action)
        guard actor.rank >= minimum.rank else { return .denied(minimum == .admin ? .notRoomAdmin : .notRoomModerator) }
        let targetRank = (target ?? .member).rank
        switch action {
        case .mute, .unmute, .kick, .ban, .unban:
            return targetRank < actor.rank ? .allowed : .denied(.targetOutranks)
        case .removeMember:
            return targetRank <= actor.rank ? .allowed : .denied(.targetOutranks)
        case .changeRole:
            return targetRank <= actor.rank && (grant ?? .member).rank <= actor.rank ? .allowed : .denied(.targetOutranks)
        default:
            return .allowed
        }
    }

    /// `decide`, throwing the refusal.
    static func require(
        _ action: RoomAction, actor: MemberRole?, target: MemberRole? = nil, grant: MemberRole? = nil
    ) throws(ChatError) {
        guard case .denied(let code) = decide(action, actor: actor, target: target, grant: grant) else { return }
        let message =
            switch code {
            case .targetOutranks: "\(action.rawValue) needs a higher role than the member's (and grants at most your own)"
            default: "\(action.rawValue) needs the room role \(minimumRole(action).rawValue) or higher"
            }
        throw ChatError(code, message)
    }
}
