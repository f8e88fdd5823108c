/// Migration 17, SQLite: the messages not yet in the search index are those above a watermark,
/// not rows of a queue.
///
/// Migrations 13 and 16 queued every new message in `message_search_pending` (an insert trigger)
/// and emptied the queue into FTS5 once it held a batch: a B-tree insert per send and a delete
/// per send later, about a third of what search added to a send. The single SQLite writer gives
/// message ids in commit order (`INTEGER PRIMARY KEY`: the largest id plus one), so "not yet
/// indexed" is a range instead: `message_search_state.indexed_through` is the largest id the
/// index has taken, and every message above it that has words and is not deleted waits to be
/// indexed, read from `messages` itself. A send writes nothing for search but its `search_doc`.
///
/// The rules, as of each commit:
/// - a message at or below the watermark is in the index exactly when it is findable
///   (`search_doc` set, `deleted_at` not); one above it is never in the index;
/// - its edit or delete changes the index at once (triggers below; rare); one above the
///   watermark needs no index work, the flush reads the row as it is then;
/// - the watermark is never above the largest id: SQLite gives a new row the largest id plus
///   one, so when deletes leave the largest id below the watermark, the watermark comes down
///   with it (the rows under it are all indexed), and a new message is never given an id the
///   index already counts as taken;
/// - before each COMMIT the writer moves everything above the watermark into the index in one
///   statement once the ids given since reach the batch (``flushSearchIndex(_:batch:)``).
///
/// PostgreSQL has no queue (its index is written by the send): nothing to do there.
extension Schema {
    /// SQL for the watermark, as a scalar subquery.
    static let searchWatermark = "(SELECT indexed_through FROM message_search_state)"

    /// SQL for the largest message id (0 with no messages).
    private static let largestMessageID = "(SELECT coalesce(max(id), 0) FROM messages)"

    /// Adds `row`'s words, behind its room's tag, to the index.
    private static let indexNew = """
        INSERT INTO message_search (rowid, doc)
            SELECT new.id, \(taggedDocument("new", tag: "t.tag")) FROM \(tagOf("new"))
            WHERE \(indexedRow("new"));
        """

    /// Takes `old` out of the index when it is there (findable and at or below the watermark).
    private static let forgetIndexedOld = """
        INSERT INTO message_search (message_search, rowid, doc)
            SELECT 'delete', old.id, \(taggedDocument("old", tag: "t.tag")) FROM \(tagOf("old"))
            WHERE \(indexedRow("old")) AND old.id <= \(searchWatermark);
        """

    static let searchWatermarkSQLite = """
        \(flushSearchIndexSQL.joined(separator: ";\n"));
        DROP TRIGGER messages_search_insert;
        DROP TRIGGER messages_search_update;
        DROP TRIGGER messages_search_delete;
        DROP TABLE message_search_pending;
        CREATE TABLE message_search_state (indexed_through INTEGER NOT NULL);
        INSERT INTO message_search_state (indexed_through) SELECT \(largestMessageID);
        CREATE TRIGGER messages_search_update AFTER UPDATE OF search_doc, deleted_at, app_id, room_id ON messages
        WHEN (old.search_doc IS NOT new.search_doc OR old.deleted_at IS NOT new.deleted_at
            OR old.app_id IS NOT new.app_id OR old.room_id IS NOT new.room_id)
            AND old.id <= \(searchWatermark)
        BEGIN
            \(forgetIndexedOld)
            \(indexNew)
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages
        BEGIN
            \(forgetIndexedOld)
            UPDATE message_search_state SET indexed_through = \(largestMessageID)
            WHERE indexed_through > \(largestMessageID);
        END
        """

    /// Moves the messages above the watermark into the index and raises it to the largest id.
    /// The range drives the statement (`CROSS JOIN` keeps SQLite reading `messages` by id); a
    /// message deleted or without words since is simply not taken.
    static let flushSearchWatermarkSQL = [
        """
        INSERT INTO message_search (rowid, doc)
        SELECT m.id, \(taggedDocument("m", tag: "printf('\(searchTagFormat)', s.tag)"))
        FROM messages m CROSS JOIN search_rooms s ON s.app_id = m.app_id AND s.room_id = m.room_id
        WHERE m.id > \(searchWatermark) AND \(indexedRow("m"))
        """,
        "UPDATE message_search_state SET indexed_through = \(largestMessageID)"
    ]

    /// Moves the messages above the watermark into the index once ids given since it number at
    /// least `batch` (1: whenever there are any); the SQLite writer runs it before every COMMIT.
    /// Ids a rolled-back or deleted message took count too: the batch is a bound, not a count.
    /// Returns whether it did (and so wrote a new segment of the index).
    @discardableResult
    static func flushSearchIndex(_ context: SQLContext, batch: Int) throws(StoreError) -> Bool {
        // Per commit, not per send: two lookups at the ends of B-trees.
        let waiting: Int64
        do {
            waiting =
                try context.queryFirst("SELECT \(largestMessageID) - indexed_through FROM message_search_state", []) {
                    $0.int64(0)
                } ?? 0
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.internal, "reading the search watermark: \(error)")
        }
        guard waiting > 0, waiting >= Int64(batch) else { return false }
        for statement in flushSearchWatermarkSQL { try context.execute(statement, []) }
        return true
    }
}
