/// Migration 18, PostgreSQL: the search walk reads an index, not the table, and the GIN index
/// keeps no pending list.
///
/// The walk reads each room's newest messages to find the newest matches
/// (`SQLChatStore+SearchPostgresWalk.swift`). Through `messages_room_newest` every message it
/// looked at was a read of its row, and a room's rows lie scattered over the whole table (one
/// in a thousand, with a thousand rooms): 1.3–1.7 µs a message. `messages_room_search` holds,
/// in the same order (app, room, id), everything the walk asks of a message — its vector, its
/// sender and whether it is deleted — so the walk is an index-only scan over a room's entries,
/// side by side on a few pages: 0.5 µs a message (1,000,000 messages, 50 rooms, 6,000 read).
///
/// A B-tree entry holds at most 2,704 bytes, and a vector has no bound. The index therefore
/// takes only messages whose vector is at most ``searchWalkVectorBytes`` bytes in text (which
/// bounds its stored size at about 1,700 bytes, leaving room for the ids: a room or user id is
/// at most 150 or 200 bytes); `messages_room_search_long` keeps the others' places, and the walk
/// reads both in order, the few long ones from the table. Messages with no vector (deleted, or
/// without words) belong to the first.
///
/// The GIN index stops collecting new entries in its pending list (`fastupdate = off`): every
/// scan of the index reads the whole list, and a search scans the index once per room, so the
/// list that inserts keep until it reaches 4 MB (or a vacuum passes) cost a search 130–200 ms at
/// 10,000 messages in it. Each send now writes its words into the index itself (10,000 copied
/// messages: 3.0 s against 1.9 s, plus 0.6–0.7 s to empty the list later).
///
/// An index-only scan reads the table for entries on pages the visibility map does not yet call
/// all-visible — the newest messages, until a vacuum passes. An insert-only table is vacuumed
/// after a fifth of its rows by default, so a busy server's newest hundreds of thousands would
/// be read the slow way; the table is vacuumed after every 10,000 new rows instead (such a
/// vacuum reads only the pages not yet all-visible).
extension Schema {
    /// The largest vector, in bytes of its text form, that `messages_room_search` holds.
    static let searchWalkVectorBytes = 1_000

    /// SQL that holds for a row of `alias` in `messages_room_search`.
    static func inSearchWalkIndex(_ alias: String) -> String {
        "COALESCE(octet_length(\(alias).search::text), 0) <= \(searchWalkVectorBytes)"
    }

    /// SQL that holds for a row of `alias` in `messages_room_search_long`.
    static func inSearchWalkLongIndex(_ alias: String) -> String {
        "octet_length(\(alias).search::text) > \(searchWalkVectorBytes)"
    }

    static let searchWalkIndexPostgres = """
        SET LOCAL maintenance_work_mem = '256MB';
        CREATE INDEX messages_room_search ON messages (app_id, room_id, id) INCLUDE (sender_id, deleted_at, search)
            WHERE \(inSearchWalkIndex("messages"));
        CREATE INDEX messages_room_search_long ON messages (app_id, room_id, id) WHERE \(inSearchWalkLongIndex("messages"));
        ALTER TABLE messages SET (autovacuum_vacuum_insert_threshold = 10000, autovacuum_vacuum_insert_scale_factor = 0);
        ALTER INDEX messages_search SET (fastupdate = off);
        SELECT gin_clean_pending_list('messages_search')
        """
}
