/// Migration 5: what stays behind when access ends.
///
/// `retired_rooms` keeps the id of every deleted room so it is never handed out again: room
/// ids are channel names (`private-room-{id}`), and a new room under an old id would reach the
/// old room's subscribers and documents. `user_token_cutoffs` keeps, per user, the time before
/// which that user's tokens are refused; it outlives the user row, so a deleted user's token
/// stays refused even after the app creates a user with the same id.
extension Schema {
    static let revocationSQLite = """
        CREATE TABLE retired_rooms (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            deleted_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, id)
        ) WITHOUT ROWID;
        CREATE TABLE user_token_cutoffs (
            app_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            valid_after INTEGER NOT NULL,
            PRIMARY KEY (app_id, user_id)
        ) WITHOUT ROWID;
        """

    static let revocationPostgres = """
        CREATE TABLE retired_rooms (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            deleted_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, id)
        );
        CREATE TABLE user_token_cutoffs (
            app_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            valid_after BIGINT NOT NULL,
            PRIMARY KEY (app_id, user_id)
        );
        """
}
