/// Which messages of a room a member wants to be notified of while away (the notification hook).
public enum NotificationLevel: String, Sendable, Hashable, CaseIterable {
    /// Every message (the default).
    case all
    /// Only messages that mention the member.
    case mentions
    /// None.
    case none
}
