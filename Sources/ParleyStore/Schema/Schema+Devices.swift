/// Migration 6: the push device tokens of each user.
///
/// A token names one app install on one device, so it belongs to at most one user of an app at
/// a time: registering it again (another user signed in on that device) moves it. The by-user
/// index serves the lookup a notification sender makes for each recipient.
extension Schema {
    static let devicesSQLite = """
        CREATE TABLE device_tokens (
            app_id TEXT NOT NULL,
            token TEXT NOT NULL,
            user_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, token)
        ) WITHOUT ROWID;
        CREATE INDEX device_tokens_by_user ON device_tokens (app_id, user_id);
        """

    static let devicesPostgres = """
        CREATE TABLE device_tokens (
            app_id TEXT NOT NULL,
            token TEXT NOT NULL,
            user_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, token)
        );
        CREATE INDEX device_tokens_by_user ON device_tokens (app_id, user_id);
        """
}
