/// Migration 13, SQLite: message search (see SQLChatStore+SearchSQLite.swift). Migration 16
/// (Schema+SearchRoomTags.swift) replaces its FTS5 table and its edit and delete triggers;
/// migration 17 (Schema+SearchWatermark.swift) replaces the queue below by a watermark over
/// message ids, and its triggers; the column and the rule that a message is findable exactly
/// when `search_doc` is set and `deleted_at` is not stay.
///
/// `messages.search_doc` holds a message's words as ``SearchTokenizer/document(for:)`` makes them
/// at send and edit (Swift cuts them, so SQLite and the query agree on every script). A
/// contentless FTS5 table indexes them with one more column, `room`: a single token naming the
/// message's app and room, so a search intersects its words with the caller's rooms inside the
/// index. The FTS5 tokenizer only splits the document at its spaces and keeps marks inside words
/// (`M*`), as the Swift tokenizer did. The index keeps no word positions (`detail = column`: a
/// search asks for words, not phrases) and no column sizes (`columnsize = 0`): ranking reads the
/// candidates' `search_doc`, which it fetches anyway, so FTS5 need not store them again. FTS5
/// merges a level's segments once 8 of them are there, not 4: each commit adds a segment, and
/// merging less often cut the index's instructions per message by 14% (59,000 to 50,600 in
/// transactions of 100), for at most twice the segments a search looks words up in.
///
/// **In step, in bulk.** A message is findable exactly when `search_doc` is set and `deleted_at`
/// is not, as of each commit: it is either in the FTS5 index or in `message_search_pending`, the
/// queue its insert trigger put it in, which the same transaction wrote. Searches read both
/// (SQLChatStore+SearchSQLite.swift). New messages are not written to FTS5 one by one: FTS5 writes
/// its pending words out as a new segment at the end of every statement that touched it, and
/// every segment is merged again later, so a row per send cost a segment per send (40–50 µs a row
/// against 13–16 µs in bulk) and a statement per commit still cost twice what one per thousand
/// rows does (61,900 against 33,800 instructions a row). Before each COMMIT the writer checks the
/// queue (``flushSearchIndex(_:batch:)``) and, once it holds `batch` messages, moves them all
/// into the index in one statement, inside that transaction. A job rolled back to its savepoint
/// takes its queue entry with it.
///
/// Edits and deletes change indexed rows in place (they are rare): the old version leaves the
/// index unless it was still queued, which FTS5 can only do when told the old values (a
/// contentless table), and the new version is queued. A deleted message's words are cleared from
/// `search_doc` in the same transaction, so an erased user's text does not stay behind in it.
extension Schema {
    /// Migration 13's room column token for a message of `app` and `room`, as SQL over a row's
    /// columns (the hex of the app id, a unit separator and the room id).
    private static func roomToken(_ row: String) -> String {
        "lower(hex(\(row).app_id || char(31) || \(row).room_id))"
    }

    private static func indexed(_ row: String) -> String {
        "\(row).search_doc IS NOT NULL AND \(row).deleted_at IS NULL"
    }

    /// Takes `old` out of the index when it is there (indexed and not still queued).
    private static let forgetOld = """
        INSERT INTO message_search (message_search, rowid, doc, room)
            SELECT 'delete', old.id, old.search_doc, \(roomToken("old"))
            WHERE \(indexed("old")) AND NOT EXISTS (SELECT 1 FROM message_search_pending WHERE id = old.id);
        """

    static let searchSQLite = """
        ALTER TABLE messages ADD COLUMN search_doc TEXT;
        CREATE VIRTUAL TABLE message_search USING fts5(
            doc, room, content = '', detail = column, columnsize = 0,
            tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'"
        );
        INSERT INTO message_search (message_search, rank) VALUES ('automerge', 8);
        CREATE TABLE message_search_pending (id INTEGER PRIMARY KEY);
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages WHEN \(indexed("new"))
        BEGIN
            INSERT OR IGNORE INTO message_search_pending (id) VALUES (new.id);
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF search_doc, deleted_at, app_id, room_id ON messages
        WHEN old.search_doc IS NOT new.search_doc OR old.deleted_at IS NOT new.deleted_at
            OR old.app_id IS NOT new.app_id OR old.room_id IS NOT new.room_id
        BEGIN
            \(forgetOld)
            INSERT OR IGNORE INTO message_search_pending (id) SELECT new.id WHERE \(indexed("new"));
        END;
        CREATE TRIGGER messages_search_forget AFTER UPDATE OF deleted_at ON messages
        WHEN new.deleted_at IS NOT NULL AND new.search_doc IS NOT NULL
        BEGIN
            UPDATE messages SET search_doc = NULL WHERE id = new.id;
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages WHEN \(indexed("old"))
        BEGIN
            \(forgetOld)
            DELETE FROM message_search_pending WHERE id = old.id;
        END
        """

    /// Writes the queued messages into migration 13's index and empties the queue. The queue
    /// drives the join (`CROSS JOIN` keeps SQLite from scanning `messages` instead), and a queued
    /// message deleted since is simply not found. Only migration 13 runs it: from 14 on the index
    /// is another table (``flushSearchIndex(_:batch:)``).
    static let flushVersionThirteenSQL = [
        """
        INSERT INTO message_search (rowid, doc, room)
        SELECT m.id, m.search_doc, \(roomToken("m")) FROM message_search_pending p CROSS JOIN messages m ON m.id = p.id
        WHERE \(indexed("m"))
        """,
        "DELETE FROM message_search_pending"
    ]

    /// Fills `search_doc` for the messages stored before migration 13 and indexes them.
    static func indexStoredMessages(_ context: SQLContext) throws {
        var after: Int64 = 0
        while true {
            let rows = try context.query(
                "SELECT id, parts FROM messages WHERE id > $1 AND deleted_at IS NULL ORDER BY id LIMIT 1000",
                [.integer(after)]
            ) { row in (id: row.int64(0), parts: row.text(1)) }
            guard let last = rows.last else { break }
            for row in rows {
                guard let parts = try? MessagePartsJSON.decode(row.parts),
                    let document = SearchTokenizer.document(for: parts)
                else { continue }
                try context.execute("UPDATE messages SET search_doc = $2 WHERE id = $1", [.integer(row.id), .text(document)])
            }
            after = last.id
        }
        for statement in flushVersionThirteenSQL { try context.execute(statement, []) }
    }
}
