/// Migration 9: per-member notification settings of the chat hooks.
///
/// One row per member who changed the setting of a room away from the default (`all`); a
/// member without a row hears about every message. The row belongs to the membership and goes
/// with it (leaving, removal, room or user deletion), so a member who rejoins starts from the
/// default again. The notification hook reads the rows of one room at a time, which the
/// primary key's (app, room) prefix serves.
extension Schema {
    static let chatHooksSQLite = """
        CREATE TABLE notification_settings (
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            level TEXT NOT NULL CHECK (level IN ('all', 'mentions', 'none')),
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, room_id, user_id),
            FOREIGN KEY (app_id, room_id, user_id) REFERENCES memberships (app_id, room_id, user_id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        """

    static let chatHooksPostgres = """
        CREATE TABLE notification_settings (
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            level TEXT NOT NULL CHECK (level IN ('all', 'mentions', 'none')),
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, room_id, user_id),
            FOREIGN KEY (app_id, room_id, user_id) REFERENCES memberships (app_id, room_id, user_id) ON DELETE CASCADE
        );
        """
}
