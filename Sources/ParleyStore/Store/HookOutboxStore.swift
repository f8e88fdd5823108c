/// The chat hook outbox (migration 12): deliveries that survive a stop or a crash, apart from
/// ``ChatStore`` so that a store without it still serves the rest of the chat API.
///
/// Times are milliseconds since the epoch by the caller's wall clock; nodes sharing a database
/// are expected to keep their clocks close (a claim lasts seconds).
public protocol HookOutboxStore: Sendable {
    /// Writes events to deliver, due at once; `room` routes the write to that room's writer.
    func addHookEvents(_ events: [HookOutboxEvent], room: String?) async throws
    /// Appends a message as ``ChatStore/appendMessage(app:room:_:)`` does and, when it is new,
    /// writes the events `hookEvents` builds from the stored message in the same transaction:
    /// the send and its events commit together or not at all (a retry writes none).
    func appendMessage(
        app: String, room: String, _ message: NewMessage, hookEvents: @escaping HookEventBuilder
    ) async throws
        -> AppendResult
    /// Claims up to `limit` due rows (due by `now`, not claimed by anyone until after `now`)
    /// until `until`, oldest first; a row claimed here is not returned to any caller again
    /// before `until` unless ``retryHookEvents(_:)`` releases it.
    func claimHookEvents(now: Int64, until: Int64, limit: Int) async throws -> [ClaimedHookEvent]
    /// Deletes rows: delivered, or given up.
    func removeHookEvents(ids: [Int64]) async throws
    /// Records failed attempts and releases the rows' claims.
    func retryHookEvents(_ retries: [HookEventRetry]) async throws
    /// At start: releases claims an earlier run of this process left, where that is knowable.
    /// On SQLite, which one process owns (the data directory lock), every claim is such a claim;
    /// on PostgreSQL claims may be other running nodes', so none is released (they lapse).
    func releaseStaleHookClaims() async throws
    /// Rows waiting (due or not, claimed or not).
    func pendingHookEventCount() async throws -> Int
}

/// Builds a new message's outbox rows inside its write (see ``HookOutboxStore``).
public typealias HookEventBuilder = @Sendable (Message) -> [HookOutboxEvent]
