/// Moderation on the SQL store: every action and its audit entry in one transaction on the room's writer.
extension SQLChatStore {
    static let restrictionColumns = "room_id, user_id, kind, ends_at, reason, actor_id, created_at"
    static let flagColumns = "id, room_id, message_id, flagger_id, reason, created_at, resolved_at, resolved_by, resolution"
    static let auditColumns = "id, room_id, actor_id, action, target_user_id, target_message_id, reason, detail, created_at"

    public func moderation(app: String, room: String) async throws -> RoomModeration {
        try await read { context in
            guard
                let row = try context.queryFirst(
                    "SELECT slow_mode_seconds, direct_user_low, direct_user_high FROM rooms WHERE app_id = $1 AND id = $2",
                    [.text(app), .text(room)], { row in (seconds: row.int(0), direct: row.isNull(1) ? [] : [row.text(1), row.text(2)]) })
            else { throw StoreError(.notFound, "room \(room) not found") }
            let restrictions = try context.query(
                """
                SELECT \(Self.restrictionColumns) FROM room_restrictions WHERE app_id = $1 AND room_id = $2 ORDER BY user_id, kind
                """, [.text(app), .text(room)]
            ) { try Self.decodeRestriction($0) }
            return RoomModeration(slowModeSeconds: row.seconds, restrictions: restrictions, directUserIDs: row.direct)
        }
    }

    public func setSlowMode(app: String, room: String, seconds: Int, audit: NewAuditEntry) async throws -> Int {
        guard seconds >= 0 else { throw StoreError(.invalidArgument, "slow mode seconds must not be negative") }
        return try await write(app: app, room: room) { context in
            guard
                let previous = try context.queryFirst(
                    "SELECT slow_mode_seconds FROM rooms WHERE app_id = $1 AND id = $2", [.text(app), .text(room)], { $0.int(0) })
            else { throw StoreError(.notFound, "room \(room) not found") }
            try context.execute(
                "UPDATE rooms SET slow_mode_seconds = $3 WHERE app_id = $1 AND id = $2", [.text(app), .text(room), .int(seconds)])
            try Self.insertAudit(context, app: app, room: room, audit)
            return previous
        }
    }

    public func restrict(app: String, _ restriction: RoomRestriction, audit: NewAuditEntry) async throws -> Bool {
        try validateIdentifier(restriction.userID, "user id")
        let room = restriction.roomID
        return try await write(app: app, room: room) { context in
            guard try Self.roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
            try context.execute(
                """
                INSERT INTO room_restrictions (app_id, room_id, user_id, kind, ends_at, reason, actor_id, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (app_id, room_id, user_id, kind) DO UPDATE SET
                    ends_at = excluded.ends_at, reason = excluded.reason, actor_id = excluded.actor_id, created_at = excluded.created_at
                """,
                [
                    .text(app), .text(room), .text(restriction.userID), .text(restriction.kind.rawValue), .integer(restriction.until),
                    .text(restriction.reason), .text(restriction.actorID), .integer(context.now)
                ])
            let removed = try restriction.kind == .ban && Self.deleteMembership(context, app: app, room: room, user: restriction.userID)
            try Self.insertAudit(context, app: app, room: room, audit)
            return removed
        }
    }

    public func liftRestriction(
        app: String, room: String, user: String, kind: RoomRestriction.Kind, audit: NewAuditEntry
    ) async throws -> Bool {
        try await write(app: app, room: room) { context in
            let lifted = try context.execute(
                "DELETE FROM room_restrictions WHERE app_id = $1 AND room_id = $2 AND user_id = $3 AND kind = $4",
                [.text(app), .text(room), .text(user), .text(kind.rawValue)])
            guard lifted > 0 else {
                guard try Self.roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
                return false
            }
            try Self.insertAudit(context, app: app, room: room, audit)
            return true
        }
    }

    public func kick(app: String, room: String, user: String, audit: NewAuditEntry) async throws -> Bool {
        try await write(app: app, room: room) { context in
            guard try Self.deleteMembership(context, app: app, room: room, user: user) else {
                guard try Self.roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
                return false
            }
            try Self.insertAudit(context, app: app, room: room, audit)
            return true
        }
    }

    /// Ends a membership inside a write, keeping the member count and the last-admin rule.
    static func deleteMembership(_ context: SQLContext, app: String, room: String, user: String) throws -> Bool {
        if let membership = try fetchMembership(context, app: app, room: room, user: user), membership.role.managesRoom {
            try requireAnotherAdmin(context, app: app, room: room, user: user, "leave")
        }
        let removed = try context.execute(
            "DELETE FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id = $3", [.text(app), .text(room), .text(user)])
        guard removed > 0 else { return false }
        try context.execute(
            "UPDATE rooms SET member_count = member_count - 1 WHERE app_id = $1 AND id = $2", [.text(app), .text(room)])
        return true
    }

    public func recordAudit(app: String, room: String, _ entry: NewAuditEntry) async throws {
        try await write(app: app, room: room) { context in try Self.insertAudit(context, app: app, room: room, entry) }
    }

    static func insertAudit(_ context: SQLContext, app: String, room: String, _ entry: NewAuditEntry) throws {
        try context.execute(
            """
            INSERT INTO moderation_audit (app_id, room_id, actor_id, action, target_user_id, target_message_id, reason, detail, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            """,
            [
                .text(app), .text(room), .text(entry.actorID), .text(entry.action), .text(entry.targetUserID),
                .integer(entry.targetMessageID), .text(entry.reason), .text(entry.detail), .integer(context.now)
            ])
    }

    public func auditLog(app: String, room: String, before: Int64?, limit: Int) async throws -> [AuditEntry] {
        let limit = clampedLimit(limit, maximum: limits.historyPage)
        return try await read { context in
            let entries = try context.query(
                """
                SELECT \(Self.auditColumns) FROM moderation_audit WHERE app_id = $1 AND room_id = $2 AND id < $3
                ORDER BY id DESC LIMIT $4
                """, [.text(app), .text(room), .integer(before ?? Int64.max), .int(limit)]
            ) { row in
                AuditEntry(
                    id: row.int64(0), roomID: row.text(1),
                    record: NewAuditEntry(
                        action: row.text(3), actorID: row.optionalText(2), targetUserID: row.optionalText(4),
                        targetMessageID: row.optionalInt64(5), reason: row.optionalText(6), detail: row.optionalText(7)),
                    createdAt: row.int64(8))
            }
            if entries.isEmpty, try !Self.roomExists(context, app: app, id: room) { throw StoreError(.notFound, "room \(room) not found") }
            return entries
        }
    }

    public func flagMessage(
        app: String, room: String, message: Int64, flagger: String, reason: String?
    ) async throws -> (flag: MessageFlag, created: Bool) {
        try await write(app: app, room: room) { context in
            _ = try Self.fetchMessage(context, app: app, room: room, id: message)
            let inserted = try context.execute(
                """
                INSERT INTO message_flags (app_id, room_id, message_id, flagger_id, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (app_id, message_id, flagger_id) DO NOTHING
                """, [.text(app), .text(room), .integer(message), .text(flagger), .text(reason), .integer(context.now)])
            let flag = try context.queryFirst(
                "SELECT \(Self.flagColumns) FROM message_flags WHERE app_id = $1 AND message_id = $2 AND flagger_id = $3",
                [.text(app), .integer(message), .text(flagger)], Self.decodeFlag)
            guard let flag else { throw StoreError(.internal, "flag of message \(message) vanished") }
            return (flag, inserted > 0)
        }
    }

    public func flags(app: String, room: String?, state: MessageFlag.State, after: Int64?, limit: Int) async throws -> [MessageFlag] {
        let limit = clampedLimit(limit, maximum: limits.historyPage)
        let stateFilter =
            switch state {
            case .open: " AND resolved_at IS NULL"
            case .resolved: " AND resolved_at IS NOT NULL"
            case .all: ""
            }
        return try await read { context in
            if let room {
                return try context.query(
                    """
                    SELECT \(Self.flagColumns) FROM message_flags WHERE app_id = $1 AND room_id = $2 AND id > $3\(stateFilter)
                    ORDER BY id LIMIT $4
                    """, [.text(app), .text(room), .integer(after ?? 0), .int(limit)], Self.decodeFlag)
            }
            return try context.query(
                """
                SELECT \(Self.flagColumns) FROM message_flags WHERE app_id = $1 AND id > $2\(stateFilter) ORDER BY id LIMIT $3
                """, [.text(app), .integer(after ?? 0), .int(limit)], Self.decodeFlag)
        }
    }

    public func flag(app: String, id: Int64) async throws -> MessageFlag {
        try await read { context in try Self.fetchFlag(context, app: app, id: id) }
    }

    public func resolveFlag(app: String, id: Int64, resolution: String?, audit: NewAuditEntry) async throws -> MessageFlag {
        let room = try await flag(app: app, id: id).roomID
        return try await write(app: app, room: room) { context in
            let changed = try context.execute(
                "UPDATE message_flags SET resolved_at = $3, resolved_by = $4, resolution = $5 WHERE app_id = $1 AND id = $2",
                [.text(app), .integer(id), .integer(context.now), .text(audit.actorID), .text(resolution)])
            guard changed > 0 else { throw StoreError(.notFound, "flag \(id) not found") }
            try Self.insertAudit(context, app: app, room: room, audit)
            return try Self.fetchFlag(context, app: app, id: id)
        }
    }

    static func fetchFlag(_ context: SQLContext, app: String, id: Int64) throws -> MessageFlag {
        let flag = try context.queryFirst(
            "SELECT \(flagColumns) FROM message_flags WHERE app_id = $1 AND id = $2", [.text(app), .integer(id)], decodeFlag)
        guard let flag else { throw StoreError(.notFound, "flag \(id) not found") }
        return flag
    }

    public func block(app: String, blocker: String, blocked: String) async throws -> Bool {
        try validateIdentifier(blocked, "user id")
        return try await write { context in
            try context.execute(
                """
                INSERT INTO user_blocks (app_id, blocker_id, blocked_id, created_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (app_id, blocker_id, blocked_id) DO NOTHING
                """, [.text(app), .text(blocker), .text(blocked), .integer(context.now)]) > 0
        }
    }

    public func unblock(app: String, blocker: String, blocked: String) async throws -> Bool {
        try await write { context in
            try context.execute(
                "DELETE FROM user_blocks WHERE app_id = $1 AND blocker_id = $2 AND blocked_id = $3",
                [.text(app), .text(blocker), .text(blocked)]) > 0
        }
    }

    public func blockedUsers(app: String, blocker: String) async throws -> [String] {
        try await read { context in
            try context.query(
                "SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2 ORDER BY blocked_id",
                [.text(app), .text(blocker)]
            ) { $0.text(0) }
        }
    }

    public func blocks(app: String, between first: String, and second: String) async throws -> Bool {
        try await read { context in
            try context.queryFirst(
                """
                SELECT 1 FROM user_blocks WHERE app_id = $1
                AND ((blocker_id = $2 AND blocked_id = $3) OR (blocker_id = $3 AND blocked_id = $2))
                """, [.text(app), .text(first), .text(second)]
            ) { _ in true } ?? false
        }
    }

    static func decodeRestriction(_ row: any SQLRow) throws(StoreError) -> RoomRestriction {
        guard let kind = RoomRestriction.Kind(rawValue: row.text(2)) else {
            throw StoreError(.internal, "unknown restriction kind \(row.text(2)) in the database")
        }
        return RoomRestriction(
            roomID: row.text(0), userID: row.text(1), kind: kind, until: row.optionalInt64(3), reason: row.optionalText(4),
            actorID: row.optionalText(5), createdAt: row.int64(6))
    }

    static func decodeFlag(_ row: any SQLRow) -> MessageFlag {
        MessageFlag(
            id: row.int64(0), roomID: row.text(1), messageID: row.int64(2), flaggerID: row.text(3), reason: row.optionalText(4),
            createdAt: row.int64(5), resolvedAt: row.optionalInt64(6), resolvedBy: row.optionalText(7), resolution: row.optionalText(8))
    }
}
