/// Migration 2: collaborative documents.
///
/// A document is owned by a room (its members may edit; it goes when the room goes) or has
/// an explicit access list. Its content is a snapshot (one merged Yjs update covering the
/// log up to `snapshot_seq`) plus the log of updates appended after it; `log_count` and
/// `log_bytes` describe that tail so the service can decide when to compact. `scope` is the
/// owner room id or '' so that names are unique per room, and among access-list documents.
extension Schema {
    static let documentsSQLite = """
        CREATE TABLE documents (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            scope TEXT NOT NULL,
            owner_room_id TEXT,
            created_by TEXT NOT NULL,
            snapshot BLOB,
            snapshot_seq INTEGER NOT NULL DEFAULT 0,
            last_seq INTEGER NOT NULL DEFAULT 0,
            log_count INTEGER NOT NULL DEFAULT 0,
            log_bytes INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, id),
            UNIQUE (app_id, scope, name),
            CHECK ((owner_room_id IS NULL AND scope = '') OR scope = owner_room_id),
            FOREIGN KEY (app_id, owner_room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE
        );
        CREATE TABLE document_access (
            app_id TEXT NOT NULL,
            document_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            PRIMARY KEY (app_id, document_id, user_id),
            FOREIGN KEY (app_id, document_id) REFERENCES documents (app_id, id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX document_access_by_user ON document_access (app_id, user_id, document_id);
        CREATE TABLE document_updates (
            app_id TEXT NOT NULL,
            document_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            data BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, document_id, seq),
            FOREIGN KEY (app_id, document_id) REFERENCES documents (app_id, id) ON DELETE CASCADE
        );
        """

    static let documentsPostgres = """
        CREATE TABLE documents (
            app_id TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            scope TEXT NOT NULL,
            owner_room_id TEXT,
            created_by TEXT NOT NULL,
            snapshot BYTEA,
            snapshot_seq BIGINT NOT NULL DEFAULT 0,
            last_seq BIGINT NOT NULL DEFAULT 0,
            log_count BIGINT NOT NULL DEFAULT 0,
            log_bytes BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, id),
            UNIQUE (app_id, scope, name),
            CHECK ((owner_room_id IS NULL AND scope = '') OR scope = owner_room_id),
            FOREIGN KEY (app_id, owner_room_id) REFERENCES rooms (app_id, id) ON DELETE CASCADE
        );
        CREATE TABLE document_access (
            app_id TEXT NOT NULL,
            document_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            PRIMARY KEY (app_id, document_id, user_id),
            FOREIGN KEY (app_id, document_id) REFERENCES documents (app_id, id) ON DELETE CASCADE
        );
        CREATE INDEX document_access_by_user ON document_access (app_id, user_id, document_id);
        CREATE TABLE document_updates (
            app_id TEXT NOT NULL,
            document_id TEXT NOT NULL,
            seq BIGINT NOT NULL,
            data BYTEA NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (app_id, document_id, seq),
            FOREIGN KEY (app_id, document_id) REFERENCES documents (app_id, id) ON DELETE CASCADE
        );
        """
}
