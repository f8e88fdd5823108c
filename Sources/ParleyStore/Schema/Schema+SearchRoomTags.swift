/// Migration 16, SQLite: the search index's words are scoped to their room.
///
/// Migration 13 indexed a message's words plus one token naming its room, so a search over 50
/// rooms had FTS5 intersect each word's list over every room (a common word: a tenth of all
/// messages) with the 50 rooms' lists: 5–20 ms at 1,000,000 messages. Here each room has a
/// number, its tag (`search_rooms`, an explicit `INTEGER PRIMARY KEY`, so `VACUUM` keeps it),
/// and every token of a message is its room's tag, written as 8 hex digits, followed by a word:
/// `0000002acoffee`. The fixed width makes tag and word unambiguous, also before a word that
/// begins with a digit. A search asks, per room in scope, for the tag followed by each word (or
/// prefix), OR-ed over the rooms, so each list FTS5 reads holds only that room's matches. There
/// is no room column any more, and with a single column FTS5 keeps only rowids (`detail = none`).
///
/// A room gets its tag when it is created (trigger on `rooms`); tags are never reused or
/// removed, so the 'delete' that takes a message out of the contentless index rebuilds exactly
/// the document it was indexed with, from `search_doc` and the same tag. The queue, its insert
/// trigger and the rule that a message is findable exactly when `search_doc` is set and
/// `deleted_at` is not stay as migration 13 made them (Schema+Search.swift); migration 17 then
/// replaces the queue by a watermark (Schema+SearchWatermark.swift).
extension Schema {
    /// A row's document as indexed: every word of `search_doc` behind its room's tag. `tag` is
    /// SQL for the tag already formatted (``searchTagFormat``).
    static func taggedDocument(_ row: String, tag: String) -> String {
        "\(tag) || replace(\(row).search_doc, ' ', ' ' || \(tag))"
    }

    /// `printf` format of a tag in the index: fixed width, so a tag never runs into its word.
    static let searchTagFormat = "%08x"

    /// The formatted tag of the room of `row`, as a one-column subquery named `t`.
    static func tagOf(_ row: String) -> String {
        """
        (SELECT printf('\(searchTagFormat)', tag) AS tag FROM search_rooms
            WHERE app_id = \(row).app_id AND room_id = \(row).room_id) AS t
        """
    }

    static func indexedRow(_ row: String) -> String {
        "\(row).search_doc IS NOT NULL AND \(row).deleted_at IS NULL"
    }

    /// Takes `old` out of the index when it is there (indexed and not still queued).
    private static let forgetOldTagged = """
        INSERT INTO message_search (message_search, rowid, doc)
            SELECT 'delete', old.id, \(taggedDocument("old", tag: "t.tag")) FROM \(tagOf("old"))
            WHERE \(indexedRow("old")) AND NOT EXISTS (SELECT 1 FROM message_search_pending WHERE id = old.id);
        """

    static let searchRoomTagsSQLite = """
        CREATE TABLE search_rooms (
            tag INTEGER PRIMARY KEY,
            app_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            UNIQUE (app_id, room_id)
        );
        INSERT INTO search_rooms (app_id, room_id) SELECT app_id, id FROM rooms ORDER BY app_id, id;
        CREATE TRIGGER rooms_search_tag AFTER INSERT ON rooms
        BEGIN
            INSERT OR IGNORE INTO search_rooms (app_id, room_id) VALUES (new.app_id, new.id);
        END;
        DROP TRIGGER messages_search_update;
        DROP TRIGGER messages_search_delete;
        DROP TABLE message_search;
        CREATE VIRTUAL TABLE message_search USING fts5(
            doc, content = '', detail = none, columnsize = 0,
            tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'"
        );
        INSERT INTO message_search (message_search, rank) VALUES ('automerge', 8);
        CREATE TRIGGER messages_search_update AFTER UPDATE OF search_doc, deleted_at, app_id, room_id ON messages
        WHEN old.search_doc IS NOT new.search_doc OR old.deleted_at IS NOT new.deleted_at
            OR old.app_id IS NOT new.app_id OR old.room_id IS NOT new.room_id
        BEGIN
            \(forgetOldTagged)
            INSERT OR IGNORE INTO message_search_pending (id) SELECT new.id WHERE \(indexedRow("new"));
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages WHEN \(indexedRow("old"))
        BEGIN
            \(forgetOldTagged)
            DELETE FROM message_search_pending WHERE id = old.id;
        END
        """

    /// The rows of `source` (the queue joined to `messages` as `m`) as the index takes them.
    static func indexRows(from source: String) -> String {
        """
        INSERT INTO message_search (rowid, doc)
        SELECT m.id, \(taggedDocument("m", tag: "printf('\(searchTagFormat)', s.tag)"))
        FROM \(source) CROSS JOIN search_rooms s ON s.app_id = m.app_id AND s.room_id = m.room_id
        WHERE \(indexedRow("m"))
        """
    }

    /// Writes the queued messages into the index and empties the queue. The queue drives the
    /// join (`CROSS JOIN` keeps SQLite from scanning `messages` instead), and a queued message
    /// deleted since is simply not found. Migration 17 runs it once, before it replaces the
    /// queue by a watermark (Schema+SearchWatermark.swift).
    static let flushSearchIndexSQL = [
        indexRows(from: "message_search_pending p CROSS JOIN messages m ON m.id = p.id"),
        "DELETE FROM message_search_pending"
    ]

    /// Indexes every message that has words again, into migration 16's new table: the rows
    /// migration 13 indexed and the ones still queued alike. One statement writes a segment per
    /// megabyte of words, which automerge would merge only bit by bit as later sends come;
    /// merging them at once here costs a tenth of the rebuild, and searches look each room's
    /// word up in every segment.
    static func indexStoredMessagesByRoom(_ context: SQLContext) throws {
        try context.execute(indexRows(from: "messages m"), [])
        try context.execute("DELETE FROM message_search_pending", [])
        try context.execute("INSERT INTO message_search (message_search) VALUES ('optimize')", [])
    }
}
