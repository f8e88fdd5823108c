/// Migration 3: unread counts without counting unread messages one by one.
///
/// A room's seqs are dense (every message takes the next one and a delete leaves a
/// tombstone), and sending moves the sender's cursor to their message, so a member's unread
/// count is `last_seq - read_seq` minus the tombstones after the cursor. Tombstones are rare;
/// this partial index holds only them, so the room list reads a handful of index entries per
/// room instead of every unread row.
extension Schema {
    static let unreadSQLite = """
        CREATE INDEX messages_tombstones ON messages (app_id, room_id, seq) WHERE deleted_at IS NOT NULL;
        """

    static let unreadPostgres = unreadSQLite
}
