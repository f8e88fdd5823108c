/// Parley's schema, as the list of migrations that build it.
///
/// Every row carries its app id: apps are isolated namespaces. Times are milliseconds since
/// the Unix epoch; custom data is the caller's JSON text, stored byte for byte. The two
/// dialects differ only in column types and the message id generator.
enum Schema {
    /// The newest schema version this build knows.
    static var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

    /// All migrations, oldest first.
    static let migrations: [Migration] = [
        Migration(version: 1, name: "chat", sqlite: chatSQLite, postgres: chatPostgres),
        Migration(version: 2, name: "documents", sqlite: documentsSQLite, postgres: documentsPostgres),
        Migration(version: 3, name: "unread tombstones", sqlite: unreadSQLite, postgres: unreadPostgres),
        Migration(version: 4, name: "append function", sqlite: appendFunctionSQLite, postgres: appendFunctionPostgres),
        Migration(version: 5, name: "retired rooms and token cutoffs", sqlite: revocationSQLite, postgres: revocationPostgres),
        Migration(version: 6, name: "device tokens", sqlite: devicesSQLite, postgres: devicesPostgres),
        Migration(version: 7, name: "threads and mentions", sqlite: threadsSQLite, postgres: threadsPostgres),
        // Moderation rebuilds the SQLite memberships table, so it comes before the tables that
        // refer to memberships.
        Migration(version: 8, name: "moderation", sqlite: moderationSQLite, postgres: moderationPostgres),
        Migration(version: 9, name: "notification settings", sqlite: chatHooksSQLite, postgres: chatHooksPostgres),
        Migration(version: 10, name: "attachment names", sqlite: filesSQLite, postgres: filesPostgres),
        Migration(version: 11, name: "app audit log", sqlite: dataRightsSQLite, postgres: dataRightsPostgres),
        Migration(version: 12, name: "chat hook outbox", sqlite: hookOutboxSQLite, postgres: hookOutboxPostgres),
        Migration(
            // PostgreSQL's script is run from `afterScript`: its word classes are computed from the
            // Swift tokenizer over all of Unicode, which only a database being migrated should pay for.
            version: 13, name: "message search", sqlite: searchSQLite, postgres: "",
            afterScript: { context in
                if context.dialect == .sqlite { try indexStoredMessages(context) } else { try context.connection.run(searchPostgres) }
            }),
        Migration(version: 14, name: "thumbnail sizes", sqlite: thumbnailsSQLite, postgres: thumbnailsPostgres),
        Migration(version: 15, name: "shared pacing", sqlite: pacingSQLite, postgres: pacingPostgres),
        Migration(
            version: 16, name: "search words scoped to their room", sqlite: searchRoomTagsSQLite, postgres: searchPostgresRooms,
            afterScript: { context in
                if context.dialect == .sqlite { try indexStoredMessagesByRoom(context) }
            }),
        Migration(version: 17, name: "search index watermark", sqlite: searchWatermarkSQLite, postgres: ""),
        Migration(version: 18, name: "search walk index, no GIN pending list", sqlite: "", postgres: searchWalkIndexPostgres),
        Migration(version: 19, name: "search words newest first", sqlite: "", postgres: searchPostingsPostgres)
    ]

    private static let chatSQLite = """
        CREATE TABLE users (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            avatar_url TEXT,
            custom_data TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, id)
        ) WITHOUT ROWID;
        CREATE TABLE rooms (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('public', 'private', 'direct')),
            name TEXT,
            custom_data TEXT,
            created_by TEXT,
            direct_user_low TEXT,
            direct_user_high TEXT,
            last_seq INTEGER NOT NULL DEFAULT 0,
            last_activity_at INTEGER NOT NULL,
            member_count INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, id),
            UNIQUE (app_id, direct_user_low, direct_user_high),
            CHECK ((kind = 'direct') = (direct_user_low IS NOT NULL AND direct_user_high IS NOT NULL))
        ) WITHOUT ROWID;
        CREATE INDEX rooms_by_kind ON rooms (app_id, kind, id);
        CREATE TABLE memberships (
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
            joined_at INTEGER NOT NULL,
            read_seq INTEGER NOT NULL DEFAULT 0,
            read_at INTEGER,
            PRIMARY KEY (app_id, room_id, user_id),
            FOREIGN KEY (app_id, room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE,
            FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX memberships_by_user ON memberships (app_id, user_id, room_id);
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            sender_id TEXT NOT NULL,
            client_id TEXT,
            parts TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            edited_at INTEGER,
            deleted_at INTEGER,
            UNIQUE (app_id, room_id, seq),
            UNIQUE (app_id, room_id, sender_id, client_id),
            FOREIGN KEY (app_id, room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE
        );
        CREATE TABLE reactions (
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            emoji TEXT NOT NULL,
            user_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, room_id, seq, emoji, user_id),
            FOREIGN KEY (app_id, room_id, seq) REFERENCES messages (app_id, room_id, seq) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE TABLE attachments (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            uploader_id TEXT NOT NULL,
            content_type TEXT NOT NULL,
            size INTEGER NOT NULL,
            width INTEGER,
            height INTEGER,
            storage_path TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, id),
            FOREIGN KEY (app_id, room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX attachments_by_room ON attachments (app_id, room_id);
        """

    private static let chatPostgres = """
        CREATE TABLE users (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            avatar_url TEXT,
            custom_data TEXT,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, id)
        );
        CREATE TABLE rooms (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('public', 'private', 'direct')),
            name TEXT,
            custom_data TEXT,
            created_by TEXT,
            direct_user_low TEXT,
            direct_user_high TEXT,
            last_seq BIGINT NOT NULL DEFAULT 0,
            last_activity_at BIGINT NOT NULL,
            member_count BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, id),
            UNIQUE (app_id, direct_user_low, direct_user_high),
            CHECK ((kind = 'direct') = (direct_user_low IS NOT NULL AND direct_user_high IS NOT NULL))
        );
        CREATE INDEX rooms_by_kind ON rooms (app_id, kind, id);
        CREATE TABLE memberships (
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
            joined_at BIGINT NOT NULL,
            read_seq BIGINT NOT NULL DEFAULT 0,
            read_at BIGINT,
            PRIMARY KEY (app_id, room_id, user_id),
            FOREIGN KEY (app_id, room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE,
            FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, id) ON DELETE CASCADE
        );
        CREATE INDEX memberships_by_user ON memberships (app_id, user_id, room_id);
        CREATE TABLE messages (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            seq BIGINT NOT NULL,
            sender_id TEXT NOT NULL,
            client_id TEXT,
            parts TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            edited_at BIGINT,
            deleted_at BIGINT,
            UNIQUE (app_id, room_id, seq),
            UNIQUE (app_id, room_id, sender_id, client_id),
            FOREIGN KEY (app_id, room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE
        );
        CREATE TABLE reactions (
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            seq BIGINT NOT NULL,
            emoji TEXT NOT NULL,
            user_id TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, room_id, seq, emoji, user_id),
            FOREIGN KEY (app_id, room_id, seq) REFERENCES messages (app_id, room_id, seq) ON DELETE CASCADE
        );
        CREATE TABLE attachments (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            uploader_id TEXT NOT NULL,
            content_type TEXT NOT NULL,
            size BIGINT NOT NULL,
            width BIGINT,
            height BIGINT,
            storage_path TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, id),
            FOREIGN KEY (app_id, room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE
        );
        CREATE INDEX attachments_by_room ON attachments (app_id, room_id);
        """
}
