/// Threads, quotes and mentions: the steps the SQLite send runs inside its transaction, and
/// thread pages.
extension SQLChatStore {
    /// What a send refers to, checked and resolved inside its transaction.
    struct SendReferences {
        /// The thread's root when the message is a reply.
        var root: Int64?
        /// The root's last repliers and reply count before this reply.
        var rootRepliers: [String] = []
        var rootReplyCount = 0
        /// The quote snapshot and its stored parts.
        var quote: QuotedMessage?
        var quotedParts: String?
        /// The mentioned members, in order of first mention.
        var mentions: [String] = []
    }

    /// Checks the parent and the quoted message and resolves the mention candidates with one
    /// query each (none for a message that has none of them).
    static func resolveReferences(
        _ context: SQLContext, app: String, room: String, _ message: NewMessage, candidates: [String]
    ) throws -> SendReferences {
        var references = SendReferences()
        if let parent = message.parentID {
            let found = try context.queryFirst(
                """
                SELECT p.parent_id, p.deleted_at, r.deleted_at,
                    CASE WHEN p.parent_id IS NULL THEN p.last_repliers ELSE r.last_repliers END,
                    CASE WHEN p.parent_id IS NULL THEN p.reply_count ELSE r.reply_count END
                FROM messages p LEFT JOIN messages r ON r.app_id = p.app_id AND r.id = p.parent_id
                WHERE p.app_id = $1 AND p.room_id = $2 AND p.id = $3
                """, [.text(app), .text(room), .integer(parent)]
            ) { row in
                (
                    up: row.optionalInt64(0), deleted: !row.isNull(1) || !row.isNull(2), repliers: row.optionalText(3),
                    count: row.int(4)
                )
            }
            guard let found else { throw StoreError(.parentNotFound, "message \(parent) not found in room \(room)") }
            guard !found.deleted else { throw StoreError(.parentDeleted, "message \(parent) or its thread was deleted") }
            references.root = found.up ?? parent
            references.rootRepliers = userIDList(found.repliers)
            references.rootReplyCount = found.count
        }
        if let quoted = message.quotedID {
            let found = try context.queryFirst(
                "SELECT sender_id, parts, deleted_at FROM messages WHERE app_id = $1 AND room_id = $2 AND id = $3",
                [.text(app), .text(room), .integer(quoted)]
            ) { row in (sender: row.text(0), parts: row.text(1), deleted: !row.isNull(2)) }
            guard let found else { throw StoreError(.quotedNotFound, "message \(quoted) not found in room \(room)") }
            guard !found.deleted else { throw StoreError(.quotedDeleted, "message \(quoted) was deleted") }
            references.quote = QuotedMessage(id: quoted, senderID: found.sender, parts: try MessagePartsJSON.decode(found.parts))
            references.quotedParts = found.parts
        }
        references.mentions = try members(context, app: app, room: room, among: candidates.filter { $0 != message.senderID })
        return references
    }

    /// Which of `candidates` are members of the room, in the candidates' order: one query for all.
    private static func members(_ context: SQLContext, app: String, room: String, among candidates: [String]) throws -> [String] {
        guard !candidates.isEmpty else { return [] }
        let placeholders = (0..<candidates.count).map { "$\($0 + 3)" }.joined(separator: ", ")
        let found = try context.query(
            "SELECT user_id FROM memberships WHERE app_id = $1 AND room_id = $2 AND user_id IN (\(placeholders))",
            [.text(app), .text(room)] + candidates.map { .text($0) }
        ) { $0.text(0) }
        return candidates.filter(found.contains)
    }

    /// After the reply is stored: the root's reply count and last repliers, and the mention rows.
    static func recordReferences(
        _ context: SQLContext, app: String, room: String, seq: Int64, sender: String, _ references: SendReferences
    ) throws -> ThreadUpdate? {
        var update: ThreadUpdate?
        if let root = references.root {
            let repliers = Array(([sender] + references.rootRepliers.filter { $0 != sender }).prefix(3))
            try context.execute(
                "UPDATE messages SET reply_count = reply_count + 1, last_repliers = $3 WHERE app_id = $1 AND id = $2",
                [.text(app), .integer(root), .text(repliers.joined(separator: " "))])
            update = ThreadUpdate(rootID: root, replyCount: references.rootReplyCount + 1, lastReplierIDs: repliers)
        }
        for user in references.mentions {
            try context.execute(
                "INSERT INTO mentions (app_id, user_id, room_id, seq) VALUES ($1, $2, $3, $4)",
                [.text(app), .text(user), .text(room), .integer(seq)])
        }
        return update
    }

    /// On delete: quotes of the message read as deleted, and its mentions stop counting as unread.
    static func forgetReferences(_ context: SQLContext, app: String, room: String, _ message: Message) throws {
        try context.execute(
            "UPDATE messages SET quoted_parts = NULL WHERE app_id = $1 AND quoted_id = $2 AND quoted_parts IS NOT NULL",
            [.text(app), .integer(message.id)])
        if !message.mentions.isEmpty {
            try context.execute(
                "DELETE FROM mentions WHERE app_id = $1 AND room_id = $2 AND seq = $3",
                [.text(app), .text(room), .integer(message.seq)])
        }
    }

    /// A page of a thread's replies in ascending seq order, paged like history; `notFound` when
    /// the room has no message `parent`.
    public func replies(app: String, room: String, parent: Int64, _ query: HistoryQuery) async throws -> [Message] {
        let limit = clampedLimit(query.limit, maximum: limits.historyPage)
        return try await read { context in
            guard
                try context.queryFirst(
                    "SELECT 1 FROM messages WHERE app_id = $1 AND room_id = $2 AND id = $3",
                    [.text(app), .text(room), .integer(parent)], { _ in true }) == true
            else { throw StoreError(.notFound, "message \(parent) not found in room \(room)") }
            let upper = query.before ?? Int64.max
            let ascending = query.after != nil
            var messages = try context.query(
                """
                SELECT \(Self.messageColumns) FROM messages WHERE app_id = $1 AND parent_id = $2 AND room_id = $3
                AND seq > $4 AND seq < $5 ORDER BY seq \(ascending ? "ASC" : "DESC") LIMIT $6
                """,
                [.text(app), .integer(parent), .text(room), .integer(query.after ?? 0), .integer(upper), .int(limit)]
            ) { try Self.decodeMessage($0) }
            if !ascending { messages.reverse() }
            try Self.attachReactions(context, app: app, room: room, to: &messages)
            return messages
        }
    }
}
