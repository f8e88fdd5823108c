/// Lookups shared by several operations; each runs on the connection it is given.
extension SQLChatStore {
    static func fetchUser(_ context: SQLContext, app: String, id: String) throws -> ChatUser {
        let user = try context.queryFirst(
            "SELECT \(userColumns) FROM users WHERE app_id = $1 AND id = $2",
            [.text(app), .text(id)], decodeUser)
        guard let user else { throw StoreError(.notFound, "user \(id) not found") }
        return user
    }

    static func fetchRoom(_ context: SQLContext, app: String, id: String) throws -> Room {
        let room = try context.queryFirst(
            "SELECT \(roomColumns) FROM rooms WHERE app_id = $1 AND id = $2",
            [.text(app), .text(id)]
        ) { try decodeRoom($0) }
        guard let room else { throw StoreError(.notFound, "room \(id) not found") }
        return room
    }

    static func roomExists(_ context: SQLContext, app: String, id: String) throws -> Bool {
        try context.queryFirst("SELECT 1 FROM rooms WHERE app_id = $1 AND id = $2", [.text(app), .text(id)]) { _ in true } ?? false
    }

    static func fetchMembership(_ context: SQLContext, app: String, room: String, user: String) throws -> Membership? {
        try context.queryFirst(
            """
            SELECT \(membershipColumns) FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id = $3
            """, [.text(app), .text(room), .text(user)]
        ) { try decodeMembership($0) }
    }

    /// The room's last seq, once it is certain the room exists and `user` is a member of it.
    ///
    /// With `lock` the room row stays locked until the transaction ends (PostgreSQL; SQLite's
    /// single writer already serializes), so appends from several nodes to one room queue up.
    static func requireMember(_ context: SQLContext, app: String, room: String, user: String, lock: Bool = false) throws -> Int64 {
        let suffix = lock && context.dialect == .postgres ? " FOR UPDATE OF r" : ""
        let access = try context.queryFirst(
            """
            SELECT r.last_seq, m.user_id FROM rooms r
            LEFT JOIN memberships m ON m.app_id = r.app_id AND m.room_id = r.id AND m.user_id = $3
            WHERE r.app_id = $1 AND r.id = $2\(suffix)
            """, [.text(app), .text(room), .text(user)]
        ) { row in (lastSeq: row.int64(0), isMember: !row.isNull(1)) }
        guard let access else { throw StoreError(.notFound, "room \(room) not found") }
        guard access.isMember else { throw StoreError(.notMember, "user \(user) is not a member of room \(room)") }
        return access.lastSeq
    }

    static func fetchMessage(_ context: SQLContext, app: String, room: String, id: Int64) throws -> Message {
        let message = try context.queryFirst(
            """
            SELECT \(messageColumns) FROM messages WHERE app_id = $1 AND room_id = $2 AND id = $3
            """, [.text(app), .text(room), .integer(id)]
        ) { try decodeMessage($0) }
        guard var message else { throw StoreError(.notFound, "message \(id) not found in room \(room)") }
        message.reactions = try reactionCounts(context, app: app, room: room, seq: message.seq)
        return message
    }

    static func reactionCounts(_ context: SQLContext, app: String, room: String, seq: Int64) throws -> [ReactionCount] {
        try context.query(
            """
            SELECT emoji, COUNT(*) FROM reactions WHERE app_id = $1 AND room_id = $2 AND seq = $3
            GROUP BY emoji ORDER BY emoji
            """, [.text(app), .text(room), .integer(seq)]
        ) { ReactionCount(emoji: $0.text(0), count: $0.int(1)) }
    }

    /// Checks that every attachment a message refers to was uploaded to the same room.
    static func requireAttachments(_ context: SQLContext, app: String, room: String, parts: [MessagePart]) throws {
        for id in parts.compactMap(\.attachmentID) {
            let found =
                try context.queryFirst(
                    "SELECT 1 FROM attachments WHERE app_id = $1 AND id = $2 AND room_id = $3",
                    [.text(app), .text(id), .text(room)]
                ) { _ in true } ?? false
            guard found else { throw StoreError(.invalidArgument, "attachment \(id) does not exist in room \(room)") }
        }
    }
}
