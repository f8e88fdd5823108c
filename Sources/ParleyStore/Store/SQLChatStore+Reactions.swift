/// Reactions on messages, counted per emoji.
extension SQLChatStore {
    public func addReaction(
        app: String, room: String, message id: Int64, user userID: String, emoji: String,
        maxDistinct: Int?
    ) async throws -> ReactionChange {
        try validateIdentifier(emoji, "emoji")
        return try await write(app: app, room: room) { context in
            let message = try Self.fetchMessage(context, app: app, room: room, id: id)
            guard !message.isDeleted else { throw StoreError(.conflict, "message \(id) was deleted") }
            _ = try Self.requireMember(context, app: app, room: room, user: userID)
            if let maxDistinct, !message.reactions.contains(where: { $0.emoji == emoji }), message.reactions.count >= maxDistinct {
                throw StoreError(
                    .limitReached, "message \(id) already has \(message.reactions.count) different reactions (at most \(maxDistinct))")
            }
            let added = try context.execute(
                """
                INSERT INTO reactions (app_id, room_id, seq, emoji, user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT DO NOTHING
                """, [.text(app), .text(room), .integer(message.seq), .text(emoji), .text(userID), .integer(context.now)])
            let counts = try Self.reactionCounts(context, app: app, room: room, seq: message.seq)
            return ReactionChange(messageID: id, seq: message.seq, reactions: counts, changed: added > 0)
        }
    }

    public func removeReaction(
        app: String, room: String, message id: Int64, user userID: String, emoji: String
    ) async throws -> ReactionChange {
        try await write(app: app, room: room) { context in
            let message = try Self.fetchMessage(context, app: app, room: room, id: id)
            let removed = try context.execute(
                """
                DELETE FROM reactions WHERE app_id = $1 AND room_id = $2 AND seq = $3 AND emoji = $4 AND user_id = $5
                """, [.text(app), .text(room), .integer(message.seq), .text(emoji), .text(userID)])
            let counts = try Self.reactionCounts(context, app: app, room: room, seq: message.seq)
            return ReactionChange(messageID: id, seq: message.seq, reactions: counts, changed: removed > 0)
        }
    }
}

/// The reactions of blocked users, which the blocker's view of messages leaves out.
extension SQLChatStore {
    public func blockedReactionCounts(app: String, blocker: String, room: String, seqs: [Int64]) async throws -> [Int64: [ReactionCount]] {
        guard let first = seqs.min(), let last = seqs.max() else { return [:] }
        let wanted = Set(seqs)
        return try await read { context in
            let rows = try context.query(
                """
                SELECT r.seq, r.emoji, COUNT(*) FROM reactions r
                JOIN user_blocks b ON b.app_id = r.app_id AND b.blocker_id = $3 AND b.blocked_id = r.user_id
                WHERE r.app_id = $1 AND r.room_id = $2 AND r.seq >= $4 AND r.seq <= $5
                GROUP BY r.seq, r.emoji ORDER BY r.seq, r.emoji
                """, [.text(app), .text(room), .text(blocker), .integer(first), .integer(last)]
            ) { row in (seq: row.int64(0), count: ReactionCount(emoji: row.text(1), count: row.int(2))) }
            var counts: [Int64: [ReactionCount]] = [:]
            for row in rows where wanted.contains(row.seq) { counts[row.seq, default: []].append(row.count) }
            return counts
        }
    }
}
