/// Migration 13, SQLite: message search (see SQLChatStore+SearchSQLite.swift).
///
/// `messages.search_doc` holds a message's words as ``SearchTokenizer/document(for:)`` makes them
/// at send and edit (Swift cuts them, so SQLite and the query agree on every script). A
/// contentless FTS5 table indexes them with one more column, `room`: a single token naming the
/// message's app and room, so a search intersects its words with the caller's rooms inside the
/// index. The FTS5 tokenizer only splits the document at its spaces and keeps marks inside words
/// (`M*`), as the Swift tokenizer did.
///
/// The triggers keep one invariant, whatever statement changes a row: a message is in the index
/// exactly when `search_doc` is set and `deleted_at` is not. A contentless table forgets a row
/// only when told the row's old values, which the update and delete triggers pass. A deleted
/// message's words are cleared from `search_doc` in the same transaction, so an erased user's text
/// does not stay behind in it.
extension Schema {
    /// The room column's token for a message of `app` and `room`, as SQL over a row's columns;
    /// `SQLChatStore.searchRoomToken(app:room:)` makes the same in Swift.
    private static func roomToken(_ row: String) -> String {
        "lower(hex(\(row).app_id || char(31) || \(row).room_id))"
    }

    private static func indexed(_ row: String) -> String {
        "\(row).search_doc IS NOT NULL AND \(row).deleted_at IS NULL"
    }

    static let searchSQLite = """
        ALTER TABLE messages ADD COLUMN search_doc TEXT;
        CREATE VIRTUAL TABLE message_search USING fts5(
            doc, room, content = '', tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'"
        );
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages WHEN \(indexed("new"))
        BEGIN
            INSERT INTO message_search (rowid, doc, room) VALUES (new.id, new.search_doc, \(roomToken("new")));
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF search_doc, deleted_at, app_id, room_id ON messages
        WHEN old.search_doc IS NOT new.search_doc OR old.deleted_at IS NOT new.deleted_at
            OR old.app_id IS NOT new.app_id OR old.room_id IS NOT new.room_id
        BEGIN
            INSERT INTO message_search (message_search, rowid, doc, room)
                SELECT 'delete', old.id, old.search_doc, \(roomToken("old")) WHERE \(indexed("old"));
            INSERT INTO message_search (rowid, doc, room)
                SELECT new.id, new.search_doc, \(roomToken("new")) WHERE \(indexed("new"));
        END;
        CREATE TRIGGER messages_search_forget AFTER UPDATE OF deleted_at ON messages
        WHEN new.deleted_at IS NOT NULL AND new.search_doc IS NOT NULL
        BEGIN
            UPDATE messages SET search_doc = NULL WHERE id = new.id;
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages WHEN \(indexed("old"))
        BEGIN
            INSERT INTO message_search (message_search, rowid, doc, room)
                VALUES ('delete', old.id, old.search_doc, \(roomToken("old")));
        END
        """

    /// Fills `search_doc` for the messages stored before migration 13 (their triggers then index them).
    static func indexStoredMessages(_ context: SQLContext) throws {
        var after: Int64 = 0
        while true {
            let rows = try context.query(
                "SELECT id, parts FROM messages WHERE id > $1 AND deleted_at IS NULL ORDER BY id LIMIT 1000",
                [.integer(after)]
            ) { row in (id: row.int64(0), parts: row.text(1)) }
            guard let last = rows.last else { return }
            for row in rows {
                guard let parts = try? MessagePartsJSON.decode(row.parts),
                    let document = SearchTokenizer.document(for: parts)
                else { continue }
                try context.execute("UPDATE messages SET search_doc = $2 WHERE id = $1", [.integer(row.id), .text(document)])
            }
            after = last.id
        }
    }
}
