/// Read cursors and the per-user room list with unread counts.
extension SQLChatStore {
    public func setReadCursor(app: String, room: String, user userID: String, seq: Int64) async throws -> CursorChange {
        try await write(app: app, room: room) { context in
            let lastSeq = try Self.requireMember(context, app: app, room: room, user: userID)
            let target = min(max(seq, 0), lastSeq)
            let moved = try context.execute(
                """
                UPDATE memberships SET read_seq = $4, read_at = $5 WHERE app_id = $1 AND room_id = $2 AND user_id = $3 AND read_seq < $4
                """, [.text(app), .text(room), .text(userID), .integer(target), .integer(context.now)])
            guard let membership = try Self.fetchMembership(context, app: app, room: room, user: userID) else {
                throw StoreError(.notMember, "user \(userID) is not a member of room \(room)")
            }
            let cursor = ReadCursor(roomID: room, userID: userID, seq: membership.readSeq, readAt: membership.readAt)
            return CursorChange(cursor: cursor, moved: moved > 0)
        }
    }

    public func readCursors(app: String, room: String) async throws -> [ReadCursor] {
        try await read { context in
            let cursors = try context.query(
                """
                SELECT room_id, user_id, read_seq, read_at FROM memberships WHERE app_id = $1 AND room_id = $2 ORDER BY user_id
                """, [.text(app), .text(room)]
            ) { row in
                ReadCursor(roomID: row.text(0), userID: row.text(1), seq: row.int64(2), readAt: row.optionalInt64(3))
            }
            if cursors.isEmpty, try !Self.roomExists(context, app: app, id: room) {
                throw StoreError(.notFound, "room \(room) not found")
            }
            return cursors
        }
    }

    /// One query for the whole list: rooms, the user's cursor, the newest message by seq and the
    /// unread count.
    ///
    /// Unread is `last_seq - read_seq` less the tombstones after the cursor: seqs are dense and a
    /// sender's cursor moves to each message they send (and never back), so every seq after the
    /// cursor is someone else's message. Thread-only replies are subtracted like tombstones: both
    /// come from a partial index of exactly those rows (migration 7), so the cost does not grow with
    /// the number of unread messages. Unread mentions are a range of the mentions table's key.
    ///
    /// SQLite is told to use the by-user index: without table statistics its planner would
    /// otherwise scan every membership of the app through the primary key.
    private static func summaryQuery(oneRoom: Bool, dialect: SQLDialect) -> String {
        """
        SELECT \(qualified(roomColumns, "r")), m.role, m.read_seq,
               CASE WHEN r.last_seq > m.read_seq THEN
                   r.last_seq - m.read_seq
                   - (SELECT COUNT(*) FROM messages t
                      WHERE t.app_id = m.app_id AND t.room_id = m.room_id AND t.seq > m.read_seq
                        AND (t.deleted_at IS NOT NULL OR t.thread_only = 1))
               ELSE 0 END,
               (SELECT COUNT(*) FROM mentions x
                WHERE x.app_id = m.app_id AND x.user_id = m.user_id AND x.room_id = m.room_id AND x.seq > m.read_seq),
               \(qualified(messageColumns, "lm"))
        FROM memberships m\(dialect == .sqlite ? " INDEXED BY memberships_by_user" : "")
        JOIN rooms r ON r.app_id = m.app_id AND r.id = m.room_id
        LEFT JOIN messages lm ON lm.app_id = r.app_id AND lm.room_id = r.id AND lm.seq = r.last_seq
        WHERE m.app_id = $1 AND m.user_id = $2 AND \(oneRoom ? "m.room_id = $3" : "1 = 1")
        ORDER BY r.last_activity_at DESC, r.id ASC
        LIMIT \(oneRoom ? "1" : "$3")
        """
    }

    private static func decodeSummary(_ row: any SQLRow) throws -> RoomSummary {
        let room = try decodeRoom(row)
        let last = row.isNull(16) ? nil : try decodeMessage(row, at: 16)
        return RoomSummary(
            room: room, role: try decodeRole(row.text(12)), readSeq: row.int64(13),
            unreadCount: row.int(14), lastMessage: last, unreadMentions: row.int(15))
    }

    public func roomSummaries(app: String, user userID: String, limit: Int) async throws -> [RoomSummary] {
        let limit = clampedLimit(limit, maximum: Int(Int32.max))
        return try await read { context in
            try context.query(
                Self.summaryQuery(oneRoom: false, dialect: context.dialect), [.text(app), .text(userID), .int(limit)], Self.decodeSummary)
        }
    }

    public func roomSummary(app: String, room: String, user userID: String) async throws -> RoomSummary {
        try await read { context in
            if let summary = try context.queryFirst(
                Self.summaryQuery(oneRoom: true, dialect: context.dialect), [.text(app), .text(userID), .text(room)],
                Self.decodeSummary)
            {
                return summary
            }
            guard try Self.roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
            throw StoreError(.notMember, "user \(userID) is not a member of room \(room)")
        }
    }
}
