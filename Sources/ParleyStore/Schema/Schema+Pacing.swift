/// Migration 15: pacing state that every node sharing the database sees.
///
/// `memberships.last_sent_at` is the member's last send a room's slow mode counted (milliseconds;
/// NULL: none), checked and set in the send's own transaction. `memberships.notified_until` is
/// the end of the member's notification quiet period for the room (NULL: none), claimed by one
/// conditional UPDATE so that only one node sends `notification.needed` per period. Both live
/// in the membership row, so they go with it (leaving, removal, erasure) and need no cleanup.
/// Neither is indexed: PostgreSQL's updates of them stay HOT (migration 4's fillfactor).
extension Schema {
    static let pacingSQLite = """
        ALTER TABLE memberships ADD COLUMN last_sent_at INTEGER;
        ALTER TABLE memberships ADD COLUMN notified_until INTEGER;
        """

    static let pacingPostgres = """
        ALTER TABLE memberships ADD COLUMN last_sent_at BIGINT;
        ALTER TABLE memberships ADD COLUMN notified_until BIGINT;
        """
}
