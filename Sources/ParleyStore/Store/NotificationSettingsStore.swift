/// Per-member notification settings of rooms (migration 9), apart from ``ChatStore`` so that
/// a store without them still serves the rest of the chat API.
public protocol NotificationSettingsStore: Sendable {
    /// Sets a member's level for a room; `notMember` if the user is not a member.
    func setNotificationLevel(app: String, room: String, user userID: String, level: NotificationLevel) async throws
    /// A member's level for a room (`all` unless changed); `notMember` if the user is not a member.
    func notificationLevel(app: String, room: String, user userID: String) async throws -> NotificationLevel
    /// The levels of the room's members who changed theirs; everyone else has `all`.
    func notificationLevels(app: String, room: String) async throws -> [String: NotificationLevel]
    /// Starts a notification quiet period ending at `until` for each of `users` (members of
    /// `room`) whose last one ended by `now`, and returns those users: the ones to notify.
    /// Atomic across every node sharing the database, so one period is claimed once.
    func claimNotificationPeriods(app: String, room: String, users: [String], now: Int64, until: Int64) async throws -> [String]
}
