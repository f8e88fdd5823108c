/// The chat hook outbox on SQL: rows are claimed by pushing `claimed_until` into the future in
/// one statement, which on PostgreSQL skips rows another node's claim has locked.
extension SQLChatStore: HookOutboxStore {
    public func addHookEvents(_ events: [HookOutboxEvent], room: String?) async throws {
        guard let first = events.first else { return }
        let operation: @Sendable (SQLContext) throws -> Void = { context in try Self.insertHookEvents(context, events) }
        if let room {
            try await write(app: first.appID, room: room, operation)
        } else {
            try await write(operation)
        }
    }

    public func claimHookEvents(now: Int64, until: Int64, limit: Int) async throws -> [ClaimedHookEvent] {
        try await write { context in
            // SQLite has one writer per file, so only PostgreSQL needs to skip rows being claimed.
            let lock = context.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
            let rows = try context.query(
                """
                UPDATE chat_hook_outbox SET claimed_until = $1 WHERE id IN (
                    SELECT id FROM chat_hook_outbox WHERE next_attempt_at <= $2 AND claimed_until <= $2
                    ORDER BY id LIMIT $3\(lock))
                RETURNING id, app_id, url, event, attempts, first_attempt_at
                """, [.integer(until), .integer(now), .int(limit)]
            ) { row in
                ClaimedHookEvent(
                    id: row.int64(0), appID: row.text(1), url: row.text(2), event: row.text(3), attempts: row.int(4),
                    firstAttemptAt: row.optionalInt64(5))
            }
            return rows.sorted { $0.id < $1.id }
        }
    }

    public func removeHookEvents(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        // One statement for the whole delivered batch: ids as a JSON array (SQLite) or an array literal (PostgreSQL).
        let list = ids.map(String.init).joined(separator: ",")
        try await write { context in
            if context.dialect == .sqlite {
                try context.execute("DELETE FROM chat_hook_outbox WHERE id IN (SELECT value FROM json_each($1))", [.text("[" + list + "]")])
            } else {
                try context.execute("DELETE FROM chat_hook_outbox WHERE id = ANY($1::bigint[])", [.text("{" + list + "}")])
            }
        }
    }

    public func retryHookEvents(_ retries: [HookEventRetry]) async throws {
        guard !retries.isEmpty else { return }
        try await write { context in
            for retry in retries {
                try context.execute(
                    """
                    UPDATE chat_hook_outbox SET attempts = $2, first_attempt_at = $3, next_attempt_at = $4, claimed_until = 0
                    WHERE id = $1
                    """,
                    [.integer(retry.id), .int(retry.attempts), .integer(retry.firstAttemptAt), .integer(retry.nextAttemptAt)])
            }
        }
    }

    public func releaseStaleHookClaims() async throws {
        try await write { context in
            guard context.dialect == .sqlite else { return }
            try context.execute("UPDATE chat_hook_outbox SET claimed_until = 0 WHERE claimed_until > 0")
        }
    }

    public func pendingHookEventCount() async throws -> Int {
        try await read { context in
            try context.queryFirst("SELECT COUNT(*) FROM chat_hook_outbox") { $0.int(0) } ?? 0
        }
    }
}
