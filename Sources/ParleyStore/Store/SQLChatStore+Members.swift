/// Memberships and roles.
extension SQLChatStore {
    public func addMember(app: String, room: String, user userID: String, role: MemberRole) async throws -> MembershipChange {
        try validateIdentifier(userID, "user id")
        return try await write(app: app, room: room) { context in
            let current = try Self.fetchRoom(context, app: app, id: room)
            if let existing = try Self.fetchMembership(context, app: app, room: room, user: userID) {
                return MembershipChange(membership: existing, changed: false)
            }
            // A new member has nothing unread: the cursor starts at the newest message.
            let membership = try Self.insertMembership(context, app: app, room: room, user: userID, role: role, readSeq: current.lastSeq)
            return MembershipChange(membership: membership, changed: true)
        }
    }

    /// Inserts a membership and counts it on the room; `notFound` when the user does not exist.
    static func insertMembership(
        _ context: SQLContext, app: String, room: String, user: String,
        role: MemberRole, readSeq: Int64
    ) throws -> Membership {
        try StoreError.remapping(.foreignKeyViolation, to: StoreError(.notFound, "user \(user) not found")) {
            try context.execute(
                """
                INSERT INTO memberships (app_id, room_id, user_id, role, joined_at, read_seq) VALUES ($1, $2, $3, $4, $5, $6)
                """, [.text(app), .text(room), .text(user), .text(role.rawValue), .integer(context.now), .integer(readSeq)])
        }
        try context.execute(
            "UPDATE rooms SET member_count = member_count + 1 WHERE app_id = $1 AND id = $2",
            [.text(app), .text(room)])
        return Membership(roomID: room, userID: user, role: role, joinedAt: context.now, readSeq: readSeq, readAt: nil)
    }

    public func removeMember(app: String, room: String, user userID: String) async throws -> Bool {
        try await write(app: app, room: room) { context in
            if let membership = try Self.fetchMembership(context, app: app, room: room, user: userID), membership.role.managesRoom {
                try Self.requireAnotherAdmin(context, app: app, room: room, user: userID, "leave")
            }
            let removed = try context.execute(
                "DELETE FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id = $3",
                [.text(app), .text(room), .text(userID)])
            guard removed > 0 else {
                guard try Self.roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
                return false
            }
            try context.execute(
                "UPDATE rooms SET member_count = member_count - 1 WHERE app_id = $1 AND id = $2",
                [.text(app), .text(room)])
            return true
        }
    }

    public func setRole(
        app: String, room: String, user userID: String, role: MemberRole,
        audit: (@Sendable (_ from: MemberRole) -> NewAuditEntry)?
    ) async throws -> MembershipChange {
        try await write(app: app, room: room) { context in
            guard var membership = try Self.fetchMembership(context, app: app, room: room, user: userID) else {
                guard try Self.roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
                throw StoreError(.notMember, "user \(userID) is not a member of room \(room)")
            }
            guard membership.role != role else { return MembershipChange(membership: membership, changed: false) }
            if membership.role.managesRoom, !role.managesRoom {
                try Self.requireAnotherAdmin(context, app: app, room: room, user: userID, "stop being admin")
            }
            try context.execute(
                "UPDATE memberships SET role = $4 WHERE app_id = $1 AND room_id = $2 AND user_id = $3",
                [.text(app), .text(room), .text(userID), .text(role.rawValue)])
            if let audit { try Self.insertAudit(context, app: app, room: room, audit(membership.role)) }
            membership.role = role
            return MembershipChange(membership: membership, changed: true)
        }
    }

    /// `lastAdmin` when `user` is the room's only admin and others remain: a room with members
    /// always keeps someone who can manage it. Runs inside the write, so two admins leaving at
    /// once cannot both pass.
    static func requireAnotherAdmin(_ context: SQLContext, app: String, room: String, user: String, _ action: String) throws {
        let counts = try context.queryFirst(
            """
            SELECT (SELECT COUNT(*) FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id <> $3),
                   (SELECT COUNT(*) FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id <> $3 AND role IN ('owner', 'admin'))
            """, [.text(app), .text(room), .text(user)]
        ) { (others: $0.int64(0), admins: $0.int64(1)) }
        guard let counts, counts.others > 0, counts.admins == 0 else { return }
        throw StoreError(.lastAdmin, "user \(user) is the last admin of room \(room): make another member admin before they \(action)")
    }

    public func membership(app: String, room: String, user userID: String) async throws -> Membership? {
        try await read { context in try Self.fetchMembership(context, app: app, room: room, user: userID) }
    }

    public func members(app: String, room: String, after: String?, limit: Int) async throws -> [Membership] {
        let limit = clampedLimit(limit, maximum: limits.historyPage)
        return try await read { context in
            let members = try context.query(
                """
                SELECT \(Self.membershipColumns) FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id > $3
                ORDER BY user_id LIMIT $4
                """, [.text(app), .text(room), .text(after ?? ""), .int(limit)]
            ) { try Self.decodeMembership($0) }
            if members.isEmpty, try !Self.roomExists(context, app: app, id: room) {
                throw StoreError(.notFound, "room \(room) not found")
            }
            return members
        }
    }
}
