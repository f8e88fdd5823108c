import ParleyWireCore

/// Export and erasure of one user's data, and the app-level audit log (migration 11).
///
/// Messages are found by their sender without an index of their own (sends stay as cheap as
/// they were): an export pages through the message ids, so all its pages together read the
/// app's messages once, and an erasure reads them once in its transaction.
extension SQLChatStore: DataRightsStore {
    public func exportPage(app: String, user: String, after: Int64?, limit: Int) async throws -> UserExportPage {
        let limit = clampedLimit(limit, maximum: 1_000)
        return try await read { context in
            let messages = try context.query(
                """
                SELECT \(Self.messageColumns) FROM messages WHERE app_id = $1 AND sender_id = $2 AND id > $3 ORDER BY id LIMIT $4
                """, [.text(app), .text(user), .integer(after ?? 0), .int(limit + 1)]
            ) { try Self.decodeMessage($0) }
            let page = Array(messages.prefix(limit))
            let next = messages.count > limit ? page.last?.id : nil
            guard after == nil else {
                return UserExportPage(user: nil, memberships: [], reactions: [], attachments: [], messages: page, nextAfter: next)
            }
            let profile = try? Self.fetchUser(context, app: app, id: user)
            let memberships = try context.query(
                "SELECT \(Self.membershipColumns) FROM memberships WHERE app_id = $1 AND user_id = $2 ORDER BY room_id",
                [.text(app), .text(user)], Self.decodeMembership)
            let reactions = try context.query(
                "SELECT room_id, seq, emoji, created_at FROM reactions WHERE app_id = $1 AND user_id = $2 ORDER BY room_id, seq, emoji",
                [.text(app), .text(user)]
            ) { (roomID: $0.text(0), seq: $0.int64(1), emoji: $0.text(2), createdAt: $0.int64(3)) }
            let attachments = try context.query(
                "SELECT \(Self.attachmentColumns) FROM attachments WHERE app_id = $1 AND uploader_id = $2 ORDER BY id",
                [.text(app), .text(user)], Self.decodeAttachment)
            return UserExportPage(
                user: profile, memberships: memberships, reactions: reactions, attachments: attachments, messages: page, nextAfter: next)
        }
    }

    public func eraseUser(app: String, user: String, mode: ErasureMode, audit: AppAuditEntry) async throws -> UserErasure {
        try validateIdentifier(user, "user id")
        return try await write { context in
            let anonymous = SQLValue.text(UserErasure.anonymousAuthor)
            let key: [SQLValue] = [.text(app), .text(user)]
            let rooms = try context.query(
                "SELECT room_id FROM memberships WHERE app_id = $1 AND user_id = $2 ORDER BY room_id", key
            ) { $0.text(0) }
            let reactions = try context.execute("DELETE FROM reactions WHERE app_id = $1 AND user_id = $2", key)
            var removed: [StoredAttachment] = []
            var anonymised = 0
            let messages: Int
            switch mode {
            case .delete:
                messages = try Self.tombstoneMessages(context, key)
                removed = try context.query(
                    "SELECT \(Self.attachmentColumns) FROM attachments WHERE app_id = $1 AND uploader_id = $2 ORDER BY id", key,
                    Self.decodeAttachment)
                _ = try context.execute("DELETE FROM attachments WHERE app_id = $1 AND uploader_id = $2", key)
            case .anonymise:
                messages = try context.execute(
                    "UPDATE messages SET sender_id = $3, client_id = NULL WHERE app_id = $1 AND sender_id = $2", key + [anonymous])
                anonymised = try context.execute(
                    "UPDATE attachments SET uploader_id = $3 WHERE app_id = $1 AND uploader_id = $2", key + [anonymous])
            }
            try Self.forgetAuthor(context, key, anonymous: anonymous)
            let userRemoved = try Self.removeProfile(context, key)
            var entry = audit
            entry.detail = JSONWriter.string(
                .object([
                    "mode": .string(mode.rawValue), "user_removed": .bool(userRemoved), "messages": .int(messages),
                    "reactions": .int(reactions), "attachments_removed": .int(removed.count), "attachments_anonymised": .int(anonymised)
                ]))
            entry = try Self.insertAudit(context, app: app, entry)
            return UserErasure(
                mode: mode, userRemoved: userRemoved, messages: messages, reactions: reactions, removedAttachments: removed,
                anonymisedAttachments: anonymised, roomIDs: rooms, audit: entry)
        }
    }

    /// The user's messages become tombstones as a delete leaves them, under the anonymous
    /// author; reactions to them, their mention rows and quotes' copies of them go too.
    private static func tombstoneMessages(_ context: SQLContext, _ key: [SQLValue]) throws -> Int {
        let own = "SELECT room_id, seq FROM messages WHERE app_id = $1 AND sender_id = $2"
        _ = try context.execute("DELETE FROM reactions WHERE app_id = $1 AND (room_id, seq) IN (\(own))", key)
        _ = try context.execute("DELETE FROM mentions WHERE app_id = $1 AND (room_id, seq) IN (\(own))", key)
        _ = try context.execute(
            """
            UPDATE messages SET quoted_parts = NULL
            WHERE app_id = $1 AND quoted_parts IS NOT NULL AND quoted_id IN (SELECT id FROM messages WHERE app_id = $1 AND sender_id = $2)
            """, key)
        return try context.execute(
            """
            UPDATE messages SET parts = '[]', mentions = NULL, deleted_at = COALESCE(deleted_at, $3), sender_id = $4, client_id = NULL
            WHERE app_id = $1 AND sender_id = $2
            """, key + [.integer(context.now), .text(UserErasure.anonymousAuthor)])
    }

    /// The user's id leaves what others' rows say of them: quotes, thread repliers, mentions
    /// of them, rooms they created.
    private static func forgetAuthor(_ context: SQLContext, _ key: [SQLValue], anonymous: SQLValue) throws {
        _ = try context.execute("UPDATE messages SET quoted_sender = $3 WHERE app_id = $1 AND quoted_sender = $2", key + [anonymous])
        _ = try context.execute(
            """
            UPDATE messages
            SET last_repliers = TRIM(REPLACE(' ' || last_repliers || ' ', ' ' || CAST($2 AS TEXT) || ' ', ' ' || CAST($3 AS TEXT) || ' '))
            WHERE app_id = $1 AND last_repliers IS NOT NULL
            AND TRIM(REPLACE(' ' || last_repliers || ' ', ' ' || CAST($2 AS TEXT) || ' ', ' ' || CAST($3 AS TEXT) || ' ')) <> last_repliers
            """, key + [anonymous])
        _ = try context.execute("DELETE FROM mentions WHERE app_id = $1 AND user_id = $2", key)
        _ = try context.execute("UPDATE rooms SET created_by = NULL WHERE app_id = $1 AND created_by = $2", key)
    }

    /// As deleting the user does: memberships, devices and profile go, and their tokens are
    /// refused from now on. False when there was no profile left.
    private static func removeProfile(_ context: SQLContext, _ key: [SQLValue]) throws -> Bool {
        _ = try context.execute(
            """
            UPDATE rooms SET member_count = member_count - 1
            WHERE app_id = $1 AND id IN (SELECT room_id FROM memberships WHERE app_id = $1 AND user_id = $2)
            """, key)
        _ = try context.execute("DELETE FROM memberships WHERE app_id = $1 AND user_id = $2", key)
        _ = try context.execute("DELETE FROM device_tokens WHERE app_id = $1 AND user_id = $2", key)
        let removed = try context.execute("DELETE FROM users WHERE app_id = $1 AND id = $2", key) > 0
        _ = try context.execute(
            """
            INSERT INTO user_token_cutoffs (app_id, user_id, valid_after) VALUES ($1, $2, $3)
            ON CONFLICT (app_id, user_id) DO UPDATE SET valid_after = excluded.valid_after
            """, key + [.integer(context.now)])
        return removed
    }

    public func recordAudit(app: String, _ entry: AppAuditEntry) async throws -> AppAuditEntry {
        try await write { context in try Self.insertAudit(context, app: app, entry) }
    }

    private static func insertAudit(_ context: SQLContext, app: String, _ entry: AppAuditEntry) throws -> AppAuditEntry {
        let id = try context.queryFirst(
            """
            INSERT INTO app_audit_log (app_id, at, actor, action, target, detail) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id
            """,
            [.text(app), .integer(context.now), .text(entry.actor), .text(entry.action), .text(entry.target), .text(entry.detail)]
        ) { $0.int64(0) }
        guard let id else { throw StoreError(.internal, "the audit log answered no id") }
        var stored = entry
        stored.id = id
        stored.at = context.now
        return stored
    }

    public func auditLog(app: String, after: Int64, limit: Int) async throws -> [AppAuditEntry] {
        let limit = clampedLimit(limit, maximum: 1_000)
        return try await read { context in
            try context.query(
                "SELECT id, at, actor, action, target, detail FROM app_audit_log WHERE app_id = $1 AND id > $2 ORDER BY id LIMIT $3",
                [.text(app), .integer(after), .int(limit)]
            ) {
                AppAuditEntry(
                    id: $0.int64(0), at: $0.int64(1), actor: $0.text(2), action: $0.text(3), target: $0.text(4), detail: $0.optionalText(5))
            }
        }
    }
}
