/// A send on PostgreSQL as one call of `parley_append_message` (migration 4), so the writer can
/// pipeline a whole batch of sends instead of making seven round trips per message.
extension SQLChatStore {
    /// What `parley_append_message` answered, decoded from its one row.
    struct AppendAnswer {
        /// 0 stored, 1 no such room, 2 not a member, 3 a retry (the original's columns), 4 a missing attachment.
        let outcome: Int
        let id: Int64
        let seq: Int64
        /// The original's parts on a retry, the missing attachment's id on outcome 4.
        let parts: String?
        let createdAt: Int64
        let editedAt: Int64?
        let deletedAt: Int64?

        init(_ row: any SQLRow) {
            outcome = row.int(0)
            id = row.int64(1)
            seq = row.int64(2)
            parts = row.optionalText(3)
            createdAt = row.int64(4)
            editedAt = row.optionalInt64(5)
            deletedAt = row.optionalInt64(6)
        }
    }

    static let appendStatementSQL = """
        SELECT outcome, id, seq, parts, created_at, edited_at, deleted_at FROM parley_append_message($1, $2, $3, $4, $5, $6, $7)
        """

    /// Many sends in one statement: `parley_append_messages` over arrays of (app, room, sender, client id, parts).
    static let coalescedAppend = CoalescedStatement(
        sql: """
            SELECT ord, outcome, id, seq, parts, created_at, edited_at, deleted_at FROM parley_append_messages($1, $2, $3, $4, $5, $6)
            """, arity: 5)

    /// Sends `message` through the server-side function; the same checks, outcomes and errors as the statement-by-statement path.
    func appendInOneStatement(
        app: String, room: String, _ message: NewMessage, encodedParts: String, hookEvents: HookEventBuilder?
    ) async throws -> AppendResult {
        let hasAttachments = message.parts.contains { part in
            if case .attachment = part { return true }
            return false
        }
        let parameters: [SQLValue] = [
            .text(app), .text(room), .text(message.senderID), .text(message.clientID),
            .text(encodedParts), .text(hasAttachments ? "true" : "false")
        ]
        // Messages with attachments go one call each: only those need the attachment check.
        let coalescing =
            hasAttachments
            ? nil
            : (
                statement: Self.coalescedAppend,
                arguments: [app, room, message.senderID, message.clientID, encodedParts]
            )
        if hookEvents != nil || message.pace != nil {
            return try await writeInTransaction(
                app: app, room: room, pace: message.pace.map { (message.senderID, $0) },
                { now in SQLStatement(Self.appendStatementSQL, parameters + [.integer(now)]) },
                decode: AppendAnswer.init,
                complete: { context, answer in
                    guard let answer else { throw StoreError(.internal, "parley_append_message answered no row") }
                    return try Self.appendResult(context, answer, app: app, room: room, message)
                }, hookEvents: hookEvents)
        }
        return try await database.writeStatement(
            { now in
                SQLStatement(Self.appendStatementSQL, parameters + [.integer(now)])
            }, decode: AppendAnswer.init,
            complete: { context, answer in
                guard let answer else { throw StoreError(.internal, "parley_append_message answered no row") }
                return try Self.appendResult(context, answer, app: app, room: room, message)
            }, coalescing: coalescing, route: .room(app: app, room: room))
    }

    private static func appendResult(
        _ context: SQLContext, _ answer: AppendAnswer, app: String, room: String,
        _ message: NewMessage
    ) throws -> AppendResult {
        switch answer.outcome {
        case 0:
            let stored = Message(
                id: answer.id, roomID: room, seq: answer.seq, senderID: message.senderID,
                clientID: message.clientID, parts: message.parts, createdAt: answer.createdAt,
                editedAt: nil, deletedAt: nil)
            return AppendResult(message: stored, created: true)
        case 1:
            throw StoreError(.notFound, "room \(room) not found")
        case 2:
            throw StoreError(.notMember, "user \(message.senderID) is not a member of room \(room)")
        case 3:
            var original = Message(
                id: answer.id, roomID: room, seq: answer.seq, senderID: message.senderID,
                clientID: message.clientID, parts: try MessagePartsJSON.decode(answer.parts ?? ""),
                createdAt: answer.createdAt, editedAt: answer.editedAt, deletedAt: answer.deletedAt)
            original.reactions = try reactionCounts(context, app: app, room: room, seq: original.seq)
            return AppendResult(message: original, created: false)
        case 4:
            throw StoreError(.invalidArgument, "attachment \(answer.parts ?? "") does not exist in room \(room)")
        default:
            throw StoreError(.internal, "parley_append_message answered outcome \(answer.outcome)")
        }
    }
}
