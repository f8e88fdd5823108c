/// Messages: idempotent append with per-room seq, history, edit, tombstone delete.
extension SQLChatStore {
    public func appendMessage(app: String, room: String, _ message: NewMessage) async throws -> AppendResult {
        try await append(app: app, room: room, message, hookEvents: nil)
    }

    /// `appendMessage`, and when `hookEvents` is given and the message is new, its outbox rows
    /// written in the message's own transaction (SQLChatStore+HookedSend.swift).
    func append(app: String, room: String, _ message: NewMessage, hookEvents: HookEventBuilder?) async throws -> AppendResult {
        try validateIdentifier(message.senderID, "sender id")
        if let clientID = message.clientID { try validateIdentifier(clientID, "client id") }
        try validateParts(message.parts)
        let parts = MessagePartsJSON.encode(message.parts)
        // Parsed here, on the caller's task, so the single SQLite writer only resolves them.
        let candidates = message.mentionCandidates
        if database.dialect == .postgres {
            if message.parentID != nil || message.quotedID != nil || !candidates.isEmpty {
                return try await appendReplyInOneStatement(
                    app: app, room: room, message, encodedParts: parts, candidates: candidates, hookEvents: hookEvents)
            }
            return try await appendInOneStatement(app: app, room: room, message, encodedParts: parts, hookEvents: hookEvents)
        }
        // Cut here too, so the single writer only binds the words (SQLite: the triggers of
        // migration 13 index them in the send's transaction).
        let document = SearchTokenizer.document(for: message.parts)
        return try await appendInWriter(
            app: app, room: room, message, encodedParts: parts, document: document, candidates: candidates,
            hookEvents: hookEvents, retryIfOriginalIsGone: true)
    }

    private func appendInWriter(
        app: String, room: String, _ message: NewMessage, encodedParts parts: String, document: String?,
        candidates: [String], hookEvents: HookEventBuilder?, retryIfOriginalIsGone: Bool
    ) async throws -> AppendResult {
        do {
            return try await write(app: app, room: room) { context in
                if let pace = message.pace {
                    try Self.takeSendSlot(context, app: app, room: room, sender: message.senderID, pace: pace)
                }
                let result = try Self.insertMessage(
                    context, app: app, room: room, message, encodedParts: parts, document: document, candidates: candidates)
                if let hookEvents, result.created { try Self.insertHookEvents(context, hookEvents(result.message)) }
                return result
            }
        } catch is DuplicateSend {
            // The insert found the client id taken and its writes were rolled back; the original
            // is committed (in an earlier transaction or earlier in this one), so a reader finds it.
            let original = try await read { context in
                try Self.fetchMessage(context, app: app, room: room, sender: message.senderID, clientID: message.clientID ?? "")
            }
            if let original { return AppendResult(message: original, created: false) }
            // The original shared this send's transaction and that transaction failed: nothing
            // of either is stored, so the send can simply run again.
            guard retryIfOriginalIsGone else { throw StoreError(.internal, "client id conflict without an original message") }
            return try await appendInWriter(
                app: app, room: room, message, encodedParts: parts, document: document, candidates: candidates,
                hookEvents: hookEvents, retryIfOriginalIsGone: false)
        }
    }

    /// Thrown inside the write when the sender already sent a message with this client id.
    private struct DuplicateSend: Error {}

    /// Takes the room's next seq, moves the sender's cursor to it (which is also the membership
    /// check) and stores the message, unless the sender's client id is taken (`DuplicateSend`).
    ///
    /// No statement has a RETURNING clause: SQLite gathers RETURNING rows in a temporary B-tree
    /// (a pager and its page buffers, opened and freed per statement), which cost more than the
    /// point read of the counter and the change counts used instead.
    private static func insertMessage(
        _ context: SQLContext, app: String, room: String, _ message: NewMessage,
        encodedParts: String, document: String?, candidates: [String]
    ) throws -> AppendResult {
        let bumped = try context.execute(
            """
            UPDATE rooms SET last_seq = last_seq + 1, last_activity_at = $3 WHERE app_id = $1 AND id = $2
            """, [.text(app), .text(room), .integer(context.now)])
        guard bumped == 1,
            let seq = try context.queryFirst(
                """
                SELECT last_seq FROM rooms WHERE app_id = $1 AND id = $2
                """, [.text(app), .text(room)], { $0.int64(0) })
        else {
            throw StoreError(.notFound, "room \(room) not found")
        }
        let moved = try context.execute(
            """
            UPDATE memberships SET read_seq = max(read_seq, $4), read_at = $5
            WHERE app_id = $1 AND room_id = $2 AND user_id = $3
            """, [.text(app), .text(room), .text(message.senderID), .integer(seq), .integer(context.now)])
        guard moved == 1 else {
            throw StoreError(.notMember, "user \(message.senderID) is not a member of room \(room)")
        }
        let references = try resolveReferences(context, app: app, room: room, message, candidates: candidates)
        try requireAttachments(context, app: app, room: room, parts: message.parts)
        let inserted = try insertRow(
            context, app: app, room: room, seq: seq, message, encodedParts: encodedParts, document: document, references)
        guard inserted == 1 else { throw DuplicateSend() }
        guard let id = context.lastInsertRowID else { throw StoreError(.internal, "no row id for the inserted message") }
        let thread = try recordReferences(context, app: app, room: room, seq: seq, sender: message.senderID, references)
        let stored = Message(
            id: id, roomID: room, seq: seq, senderID: message.senderID, clientID: message.clientID,
            parts: message.parts, createdAt: context.now, editedAt: nil, deletedAt: nil, parentID: references.root,
            showInRoom: !message.isThreadOnly, quoted: references.quote, mentions: references.mentions)
        return AppendResult(message: stored, created: true, thread: thread)
    }

    /// Inserts the message row; a plain message (no thread, quote or mention, most of them)
    /// binds only the columns it sets, as the single writer pays for every bound value.
    private static func insertRow(
        _ context: SQLContext, app: String, room: String, seq: Int64, _ message: NewMessage, encodedParts: String,
        document: String?, _ references: SendReferences
    ) throws -> Int {
        let plain = references.root == nil && references.quote == nil && references.mentions.isEmpty && !message.isThreadOnly
        if plain {
            return try context.execute(
                """
                INSERT INTO messages (app_id, room_id, seq, sender_id, client_id, parts, created_at, search_doc)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (app_id, room_id, sender_id, client_id) DO NOTHING
                """,
                [
                    .text(app), .text(room), .integer(seq), .text(message.senderID), .text(message.clientID),
                    .text(encodedParts), .integer(context.now), .text(document)
                ])
        }
        return try context.execute(
            """
            INSERT INTO messages (app_id, room_id, seq, sender_id, client_id, parts, created_at,
                parent_id, thread_only, quoted_id, quoted_sender, quoted_parts, mentions, search_doc)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            ON CONFLICT (app_id, room_id, sender_id, client_id) DO NOTHING
            """,
            [
                .text(app), .text(room), .integer(seq), .text(message.senderID), .text(message.clientID),
                .text(encodedParts), .integer(context.now), references.root.map { .integer($0) } ?? .null,
                .int(message.isThreadOnly ? 1 : 0), message.quotedID.map { .integer($0) } ?? .null,
                .text(references.quote?.senderID), .text(references.quotedParts),
                .text(references.mentions.isEmpty ? nil : references.mentions.joined(separator: " ")), .text(document)
            ])
    }

    private static func fetchMessage(_ context: SQLContext, app: String, room: String, sender: String, clientID: String) throws -> Message?
    {
        let message = try context.queryFirst(
            """
            SELECT \(messageColumns) FROM messages WHERE app_id = $1 AND room_id = $2 AND sender_id = $3 AND client_id = $4
            """, [.text(app), .text(room), .text(sender), .text(clientID)]
        ) { try decodeMessage($0) }
        guard var message else { return nil }
        message.reactions = try reactionCounts(context, app: app, room: room, seq: message.seq)
        return message
    }

    public func message(app: String, room: String, id: Int64) async throws -> Message {
        try await read { context in try Self.fetchMessage(context, app: app, room: room, id: id) }
    }

    public func history(app: String, room: String, _ query: HistoryQuery) async throws -> [Message] {
        let limit = clampedLimit(query.limit, maximum: limits.historyPage)
        return try await read { context in
            var messages = try Self.historyPage(context, app: app, room: room, query: query, limit: limit)
            if messages.isEmpty {
                guard try Self.roomExists(context, app: app, id: room) else { throw StoreError(.notFound, "room \(room) not found") }
                return []
            }
            try Self.attachReactions(context, app: app, room: room, to: &messages)
            return messages
        }
    }

    private static func historyPage(_ context: SQLContext, app: String, room: String, query: HistoryQuery, limit: Int) throws -> [Message] {
        let upper = query.before ?? Int64.max
        if let after = query.after {
            return try context.query(
                """
                SELECT \(messageColumns) FROM messages WHERE app_id = $1 AND room_id = $2 AND seq > $3 AND seq < $4
                AND thread_only = 0 ORDER BY seq ASC LIMIT $5
                """, [.text(app), .text(room), .integer(after), .integer(upper), .int(limit)]
            ) { try decodeMessage($0) }
        }
        let newestFirst = try context.query(
            """
            SELECT \(messageColumns) FROM messages WHERE app_id = $1 AND room_id = $2 AND seq < $3
            AND thread_only = 0 ORDER BY seq DESC LIMIT $4
            """, [.text(app), .text(room), .integer(upper), .int(limit)]
        ) { try decodeMessage($0) }
        return newestFirst.reversed()
    }

    /// Fills in reaction counts for a page with one query over its seq range.
    static func attachReactions(_ context: SQLContext, app: String, room: String, to messages: inout [Message]) throws {
        guard let first = messages.first?.seq, let last = messages.last?.seq else { return }
        let counts = try context.query(
            """
            SELECT seq, emoji, COUNT(*) FROM reactions WHERE app_id = $1 AND room_id = $2 AND seq >= $3 AND seq <= $4
            GROUP BY seq, emoji ORDER BY seq, emoji
            """, [.text(app), .text(room), .integer(first), .integer(last)]
        ) { row in
            (seq: row.int64(0), count: ReactionCount(emoji: row.text(1), count: row.int(2)))
        }
        guard !counts.isEmpty else { return }
        var index = 0
        for entry in counts {
            while index < messages.count, messages[index].seq < entry.seq { index += 1 }
            guard index < messages.count, messages[index].seq == entry.seq else { continue }
            messages[index].reactions.append(entry.count)
        }
    }

    public func editMessage(app: String, room: String, id: Int64, parts: [MessagePart]) async throws -> Message {
        try validateParts(parts)
        let encoded = MessagePartsJSON.encode(parts)
        let document = SearchTokenizer.document(for: parts)
        return try await write(app: app, room: room) { context in
            var message = try Self.fetchMessage(context, app: app, room: room, id: id)
            guard !message.isDeleted else { throw StoreError(.conflict, "message \(id) was deleted") }
            try Self.requireAttachments(context, app: app, room: room, parts: parts)
            if context.dialect == .sqlite {
                // The new words replace the old in the index (migration 13's triggers).
                try context.execute(
                    "UPDATE messages SET parts = $3, edited_at = $4, search_doc = $5 WHERE app_id = $1 AND id = $2",
                    [.text(app), .integer(id), .text(encoded), .integer(context.now), .text(document)])
            } else {
                try context.execute(
                    "UPDATE messages SET parts = $3, edited_at = $4 WHERE app_id = $1 AND id = $2",
                    [.text(app), .integer(id), .text(encoded), .integer(context.now)])
            }
            message.parts = parts
            message.editedAt = context.now
            return message
        }
    }

    public func deleteMessage(app: String, room: String, id: Int64, audit: NewAuditEntry?) async throws -> Message {
        try await write(app: app, room: room) { context in
            var message = try Self.fetchMessage(context, app: app, room: room, id: id)
            guard !message.isDeleted else { return message }
            if let audit { try Self.insertAudit(context, app: app, room: room, audit) }
            try context.execute(
                "UPDATE messages SET parts = '[]', deleted_at = $3 WHERE app_id = $1 AND id = $2",
                [.text(app), .integer(id), .integer(context.now)])
            try context.execute(
                "DELETE FROM reactions WHERE app_id = $1 AND room_id = $2 AND seq = $3",
                [.text(app), .text(room), .integer(message.seq)])
            try Self.forgetReferences(context, app: app, room: room, message)
            message.parts = []
            message.deletedAt = context.now
            message.reactions = []
            return message
        }
    }
}
