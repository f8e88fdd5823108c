/// A reply, quote or message with `@` candidates on PostgreSQL: one call of
/// `parley_append_reply` (migration 7), which checks the references, resolves the mentions
/// against the room's members and updates the thread root in the same statement. Plain sends
/// keep the batched path of migration 4.
extension SQLChatStore {
    /// What `parley_append_reply` answered, decoded from its one row.
    struct ReplyAnswer {
        let outcome: Int
        let id: Int64
        let seq: Int64
        let root: Int64?
        let quotedSender: String?
        let quotedParts: String?
        let mentions: String?
        /// The missing attachment's id on outcome 4.
        let detail: String?
        let replyCount: Int
        let repliers: String?

        init(_ row: any SQLRow) {
            outcome = row.int(0)
            id = row.isNull(1) ? 0 : row.int64(1)
            seq = row.isNull(2) ? 0 : row.int64(2)
            root = row.optionalInt64(3)
            quotedSender = row.optionalText(4)
            quotedParts = row.optionalText(5)
            mentions = row.optionalText(6)
            detail = row.optionalText(7)
            replyCount = row.isNull(8) ? 0 : row.int(8)
            repliers = row.optionalText(9)
        }
    }

    static let replyStatementSQL = """
        SELECT outcome, r_id, r_seq, r_parent, r_quoted_sender, r_quoted_parts, r_mentions, r_detail, r_reply_count, r_repliers
        FROM parley_append_reply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
        """

    func appendReplyInOneStatement(
        app: String, room: String, _ message: NewMessage, encodedParts: String, candidates: [String],
        hookEvents: HookEventBuilder?
    ) async throws -> AppendResult {
        let hasAttachments = message.parts.contains { part in
            if case .attachment = part { return true }
            return false
        }
        let parameters: [SQLValue] = [
            .text(app), .text(room), .text(message.senderID), .text(message.clientID),
            .text(encodedParts), .text(hasAttachments ? "true" : "false")
        ]
        let references: [SQLValue] = [
            message.parentID.map { .integer($0) } ?? .null, .int(message.isThreadOnly ? 1 : 0),
            message.quotedID.map { .integer($0) } ?? .null, .text(PostgresArray.textLiteral(candidates))
        ]
        if hookEvents != nil || message.pace != nil {
            return try await writeInTransaction(
                app: app, room: room, pace: message.pace.map { (message.senderID, $0) },
                { now in SQLStatement(Self.replyStatementSQL, parameters + [.integer(now)] + references) },
                decode: ReplyAnswer.init,
                complete: { context, answer in
                    guard let answer else { throw StoreError(.internal, "parley_append_reply answered no row") }
                    return try Self.replyResult(context, answer, app: app, room: room, message)
                }, hookEvents: hookEvents)
        }
        return try await database.writeStatement(
            { now in SQLStatement(Self.replyStatementSQL, parameters + [.integer(now)] + references) },
            decode: ReplyAnswer.init,
            complete: { context, answer in
                guard let answer else { throw StoreError(.internal, "parley_append_reply answered no row") }
                return try Self.replyResult(context, answer, app: app, room: room, message)
            }, coalescing: nil, route: .room(app: app, room: room))
    }

    private static func replyResult(
        _ context: SQLContext, _ answer: ReplyAnswer, app: String, room: String, _ message: NewMessage
    ) throws -> AppendResult {
        switch answer.outcome {
        case 0:
            let quote = try message.quotedID.map { id in
                QuotedMessage(
                    id: id, senderID: answer.quotedSender ?? "", parts: try MessagePartsJSON.decode(answer.quotedParts ?? "[]"))
            }
            let stored = Message(
                id: answer.id, roomID: room, seq: answer.seq, senderID: message.senderID, clientID: message.clientID,
                parts: message.parts, createdAt: context.now, parentID: answer.root, showInRoom: !message.isThreadOnly,
                quoted: quote, mentions: userIDList(answer.mentions))
            let thread = answer.root.map { root in
                ThreadUpdate(rootID: root, replyCount: answer.replyCount, lastReplierIDs: userIDList(answer.repliers))
            }
            return AppendResult(message: stored, created: true, thread: thread)
        case 1: throw StoreError(.notFound, "room \(room) not found")
        case 2: throw StoreError(.notMember, "user \(message.senderID) is not a member of room \(room)")
        case 3:
            // A retry: the original as stored, read in the same transaction.
            return AppendResult(message: try fetchMessage(context, app: app, room: room, id: answer.id), created: false)
        case 4: throw StoreError(.invalidArgument, "attachment \(answer.detail ?? "") does not exist in room \(room)")
        case 5: throw StoreError(.parentNotFound, "message \(message.parentID ?? 0) not found in room \(room)")
        case 6: throw StoreError(.parentDeleted, "message \(message.parentID ?? 0) or its thread was deleted")
        case 7: throw StoreError(.quotedNotFound, "message \(message.quotedID ?? 0) not found in room \(room)")
        case 8: throw StoreError(.quotedDeleted, "message \(message.quotedID ?? 0) was deleted")
        default: throw StoreError(.internal, "parley_append_reply answered outcome \(answer.outcome)")
        }
    }
}
