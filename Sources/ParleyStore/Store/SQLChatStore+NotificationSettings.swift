/// Notification settings: one row per member who moved a room away from `all`.
extension SQLChatStore: NotificationSettingsStore {
    public func setNotificationLevel(app: String, room: String, user userID: String, level: NotificationLevel) async throws {
        try await write(app: app, room: room) { context in
            guard try Self.fetchMembership(context, app: app, room: room, user: userID) != nil else {
                throw StoreError(.notMember, "\(userID) is not a member of room \(room)")
            }
            // `all` is the default: dropping the row keeps the table to the members who changed it.
            if level == .all {
                try context.execute(
                    "DELETE FROM notification_settings WHERE app_id = $1 AND room_id = $2 AND user_id = $3",
                    [.text(app), .text(room), .text(userID)])
                return
            }
            try context.execute(
                """
                INSERT INTO notification_settings (app_id, room_id, user_id, level, updated_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (app_id, room_id, user_id) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at
                """, [.text(app), .text(room), .text(userID), .text(level.rawValue), .integer(context.now)])
        }
    }

    public func notificationLevel(app: String, room: String, user userID: String) async throws -> NotificationLevel {
        try await read { context in
            guard try Self.fetchMembership(context, app: app, room: room, user: userID) != nil else {
                throw StoreError(.notMember, "\(userID) is not a member of room \(room)")
            }
            let text = try context.queryFirst(
                "SELECT level FROM notification_settings WHERE app_id = $1 AND room_id = $2 AND user_id = $3",
                [.text(app), .text(room), .text(userID)]
            ) { $0.text(0) }
            return try Self.decodeLevel(text ?? NotificationLevel.all.rawValue)
        }
    }

    public func notificationLevels(app: String, room: String) async throws -> [String: NotificationLevel] {
        try await read { context in
            let rows = try context.query(
                "SELECT user_id, level FROM notification_settings WHERE app_id = $1 AND room_id = $2",
                [.text(app), .text(room)]
            ) { row in (row.text(0), try Self.decodeLevel(row.text(1))) }
            return Dictionary(rows, uniquingKeysWith: { _, last in last })
        }
    }

    private static func decodeLevel(_ text: String) throws -> NotificationLevel {
        guard let level = NotificationLevel(rawValue: text) else {
            throw StoreError(.internal, "unknown notification level \(text) in the database")
        }
        return level
    }
}
