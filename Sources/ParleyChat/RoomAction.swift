/// Everything a room's members may be allowed to do; `RoomPermissions` says who may do which.
/// The raw values are the rows of docs/moderation.md's permission table.
public enum RoomAction: String, Sendable, Hashable, CaseIterable {
    /// Read history, members and cursors.
    case read
    /// Send a message (subject to mute, slow mode and blocked words).
    case sendMessage = "send_message"
    /// Edit one's own message.
    case editOwnMessage = "edit_own_message"
    /// Delete one's own message.
    case deleteOwnMessage = "delete_own_message"
    /// React to a message.
    case react
    /// Flag a message for review.
    case flagMessage = "flag_message"
    /// Send more often than slow mode allows.
    case bypassSlowMode = "bypass_slow_mode"
    /// Delete anyone's message.
    case deleteAnyMessage = "delete_any_message"
    /// Mute a member (a lower role).
    case mute
    /// Lift a mute (of a lower role).
    case unmute
    /// Remove a member (a lower role), who may join again.
    case kick
    /// Remove a user (a lower role) and keep them out.
    case ban
    /// Lift a ban.
    case unban
    /// Turn slow mode on, off or change it.
    case setSlowMode = "set_slow_mode"
    /// List and resolve the flags of the room's messages.
    case reviewFlags = "review_flags"
    /// Read the room's moderation state (slow mode, mutes, bans).
    case readModeration = "read_moderation"
    /// Read the room's audit log.
    case readAudit = "read_audit"
    /// Add a member.
    case addMember = "add_member"
    /// Remove another member (the same role or lower).
    case removeMember = "remove_member"
    /// Change a member's role (the same role or lower, to at most one's own).
    case changeRole = "change_role"
    /// Rename the room, change its custom data or kind.
    case updateRoom = "update_room"
    /// Delete the room.
    case deleteRoom = "delete_room"
}
