import ParleyWireCore

/// Slow mode and notification quiet periods kept in the membership row (migration 15), so that
/// every node sharing the database paces a member the same way.
extension SQLChatStore {
    /// Checks and records a paced send inside the send's transaction: `slowMode` when the
    /// member's last paced send is too recent. The row is locked on PostgreSQL, so two nodes
    /// pacing the same member take turns and the second sees the first's send; the room row
    /// is locked first, as every send locks it before the sender's membership, so that two
    /// nodes never wait for each other's locks in turn. A member row that is missing is left
    /// to the send itself, which answers `notMember`.
    static func takeSendSlot(_ context: SQLContext, app: String, room: String, sender: String, pace: SendPace) throws {
        let lock = context.dialect == .postgres ? " FOR UPDATE" : ""
        let arguments: [SQLValue] = [.text(app), .text(room), .text(sender)]
        if context.dialect == .postgres {
            _ = try context.queryFirst("SELECT 1 FROM rooms WHERE app_id = $1 AND id = $2 FOR UPDATE", [.text(app), .text(room)]) { _ in
                true
            }
        }
        guard
            let last = try context.queryFirst(
                "SELECT last_sent_at FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id = $3\(lock)", arguments,
                { $0.optionalInt64(0) })
        else { return }
        if let wait = pace.wait(after: last) {
            throw StoreError(.slowMode, "room \(room) is in slow mode; retry in \(wait) s", retryAfterSeconds: wait)
        }
        try context.execute(
            "UPDATE memberships SET last_sent_at = $4 WHERE app_id = $1 AND room_id = $2 AND user_id = $3",
            arguments + [.integer(pace.now)])
    }

    public func paceStanding(app: String, room: String, user: String) async throws -> (role: MemberRole, lastSentAt: Int64?)? {
        try await read { context in
            try context.queryFirst(
                "SELECT role, last_sent_at FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id = $3",
                [.text(app), .text(room), .text(user)]
            ) { row in (role: try Self.decodeRole(row.text(0)), lastSentAt: row.optionalInt64(1)) }
        }
    }

    public func claimNotificationPeriods(app: String, room: String, users: [String], now: Int64, until: Int64) async throws -> [String] {
        guard !users.isEmpty else { return [] }
        let list = JSONWriter.string(.array(users.map(JSONValue.string)))
        return try await write(app: app, room: room) { context in
            // One conditional UPDATE: on PostgreSQL a row another node is claiming is waited for
            // and its condition checked again against the new end, so only one claim succeeds.
            let users =
                context.dialect == .sqlite
                ? "SELECT value FROM json_each($3)" : "SELECT jsonb_array_elements_text($3::jsonb)"
            return try context.query(
                """
                UPDATE memberships SET notified_until = $5
                WHERE app_id = $1 AND room_id = $2 AND user_id IN (\(users))
                AND (notified_until IS NULL OR notified_until <= $4)
                RETURNING user_id
                """, [.text(app), .text(room), .text(list), .integer(now), .integer(until)]
            ) { $0.text(0) }.sorted()
        }
    }
}
