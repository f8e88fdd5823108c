/// A send whose chat hook events go to the outbox in the send's own transaction, so the call
/// waits for one commit and a crash cannot keep the message but lose its events.
extension SQLChatStore {
    public func appendMessage(
        app: String, room: String, _ message: NewMessage, hookEvents: @escaping HookEventBuilder
    ) async throws
        -> AppendResult
    {
        try await append(app: app, room: room, message, hookEvents: hookEvents)
    }

    /// Writes outbox rows inside a write, due at once.
    static func insertHookEvents(_ context: SQLContext, _ events: [HookOutboxEvent]) throws {
        for event in events {
            try context.execute(
                "INSERT INTO chat_hook_outbox (app_id, url, event, created_at, next_attempt_at) VALUES ($1, $2, $3, $4, 0)",
                [.text(event.appID), .text(event.url), .text(event.event), .integer(context.now)])
        }
    }

    /// PostgreSQL's one-statement send run as an ordinary write on the room's writer, after the
    /// slow-mode check of a paced send and followed by the new message's outbox rows: the write's
    /// savepoint rolls them all back together when any fails, which the pipelined statement path
    /// (whose completion runs after its savepoint is released) could not promise.
    func writeInTransaction<Row>(
        app: String, room: String, pace: (sender: String, pace: SendPace)?, _ statement: @escaping @Sendable (Int64) -> SQLStatement,
        decode: @escaping @Sendable (any SQLRow) throws -> Row,
        complete: @escaping @Sendable (SQLContext, Row?) throws -> AppendResult,
        hookEvents: HookEventBuilder?
    ) async throws -> AppendResult {
        do {
            return try await write(app: app, room: room) { context in
                if let pace { try Self.takeSendSlot(context, app: app, room: room, sender: pace.sender, pace: pace.pace) }
                let sent = statement(context.now)
                let answer = try context.queryFirst(sent.sql, sent.parameters, decode)
                let result = try complete(context, answer)
                // A paced retry stored nothing new: its slot is rolled back, as on SQLite.
                if pace != nil, !result.created { throw PacedRetry(result: result) }
                if let hookEvents, result.created { try Self.insertHookEvents(context, hookEvents(result.message)) }
                return result
            }
        } catch let retry as PacedRetry {
            return retry.result
        }
    }

    /// Thrown to roll back the slow-mode slot of a send that answered an earlier original.
    private struct PacedRetry: Error {
        let result: AppendResult
    }
}
