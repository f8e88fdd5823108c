import Dispatch
import ParleyChannels
import ParleyStore
import ParleyWire
import Synchronization

/// Delivers chat hook events from the store's outbox (migration 12), so that an event whose
/// change was acknowledged reaches its endpoint even across a stop or a crash (at least once;
/// endpoints dedupe on the event's `id`).
///
/// - `add` writes the rows (the caller awaits it before answering) and wakes the pump after
///   the batch window, so events of nearby calls share a request, as with ``ChatHookQueue``.
/// - The pump claims due rows (``HookOutboxStore/claimHookEvents(now:until:limit:)``), so
///   nodes sharing a database never send a row at the same time, and posts them per endpoint
///   in batches with the same body and signature as before. One request per endpoint is out at
///   a time; rows claimed meanwhile wait on this node for it (well within their claim).
/// - 2xx deletes the rows; a failure schedules them per ``HookRetryPolicy``; rows past the
///   window, or whose app or endpoint is no longer configured, are deleted and counted dropped.
/// - It also polls every `pollInterval` ms: for retries that came due, for rows other nodes
///   left behind when their claim lapsed, and at start for what a stopped server left.
final class ChatHookOutbox: Sendable {
    private struct Endpoint: Hashable {
        var appID: String
        var url: String
    }

    private struct State: Sendable {
        var armedFor: Int64?
        var pumping = false
        var again = false
        var stopped = false
        var busy: Set<Endpoint> = []
        var held: [Endpoint: [ClaimedHookEvent]] = [:]
    }

    /// Resolves an app and endpoint to the credentials that sign for it; nil when the app or the
    /// endpoint is no longer configured.
    typealias Resolver = @Sendable (_ appID: String, _ url: String) -> ChatHookQueue.Target?
    /// Whether any app has chat hooks now: without any, the outbox is not polled.
    typealias Activity = @Sendable () -> Bool

    private let store: any HookOutboxStore
    private let poster: any ChatHookPoster
    private let resolve: Resolver
    private let active: Activity
    private let wallClock: @Sendable () -> Int64
    private let batchWindow: Int64
    private let maxBatchEvents: Int
    private let requestTimeout: Int
    private let policy: HookRetryPolicy
    private let pollInterval: Int64
    private let claimLimit = 500
    private let statistics: ChatHookStatistics
    private let state = Mutex(State())
    private let timers = DispatchQueue(label: "parley.chat-hooks.outbox")

    /// Creates the outbox delivery; `settings` gives the batch window, limits and retry schedule.
    init(
        store: any HookOutboxStore, poster: any ChatHookPoster, settings: ChatHookQueue, statistics: ChatHookStatistics,
        pollInterval: Int64 = 1000,
        wallClock: @escaping @Sendable () -> Int64, resolve: @escaping Resolver, active: @escaping Activity
    ) {
        self.store = store
        self.poster = poster
        self.resolve = resolve
        self.active = active
        self.statistics = statistics
        self.wallClock = wallClock
        batchWindow = settings.batchWindow
        maxBatchEvents = settings.maxBatchEvents
        requestTimeout = settings.requestTimeout
        policy = HookRetryPolicy(base: settings.retryBase, window: settings.retryWindow)
        self.pollInterval = max(10, pollInterval)
    }

    /// Starts polling: what an earlier run left is sent now. Without any chat hooks it does
    /// nothing (the first `add` after a reload that configures some wakes the pump).
    func start() {
        guard active() else { return }
        Task {
            try? await store.releaseStaleHookClaims()
            wake(after: 0)
        }
    }

    /// Stops polling; rows not yet delivered stay in the outbox for the next start.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Writes events to the outbox and wakes the pump after the batch window.
    func add(_ events: [HookOutboxEvent], room: String?) async throws {
        guard !events.isEmpty else { return }
        try await store.addHookEvents(events, room: room)
        wake(after: batchWindow)
    }

    /// Appends a message with its events in the send's own transaction and wakes the pump
    /// after the batch window.
    func append(
        app: String, room: String, _ message: NewMessage, hookEvents: @escaping HookEventBuilder
    ) async throws
        -> AppendResult
    {
        let result = try await store.appendMessage(app: app, room: room, message, hookEvents: hookEvents)
        if result.created { wake(after: batchWindow) }
        return result
    }

    private func wake(after milliseconds: Int64) {
        let due = wallClock() + milliseconds
        let arm = state.withLock { s -> Bool in
            if s.stopped { return false }
            if let armed = s.armedFor, armed <= due { return false }
            s.armedFor = due
            return true
        }
        guard arm else { return }
        timers.asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) { [self] in
            Task { await pump() }
        }
    }

    private func pump() async {
        let start = state.withLock { s -> Bool in
            s.armedFor = nil
            if s.stopped { return false }
            if s.pumping {
                s.again = true
                return false
            }
            s.pumping = true
            return true
        }
        guard start else { return }
        repeat {
            state.withLock { $0.again = false }
            let now = wallClock()
            // Long enough for the request before it on this endpoint and its own.
            let lease = Int64(requestTimeout) * 2 + batchWindow + pollInterval
            let claimed: [ClaimedHookEvent]
            do {
                claimed = try await store.claimHookEvents(now: now, until: now + lease, limit: claimLimit)
            } catch let error as StoreError where error.code == .closed {
                // The store closed with the server: what is left waits for the next start.
                stop()
                break
            } catch {
                break  // the next poll tries again
            }
            if claimed.count == claimLimit { state.withLock { $0.again = true } }
            dispatch(claimed)
        } while state.withLock({ $0.again && !$0.stopped })
        state.withLock { $0.pumping = false }
        if let pending = try? await store.pendingHookEventCount() { statistics.outboxPending(pending) }
        if active() { wake(after: pollInterval) }
    }

    /// Hands claimed rows to their endpoints: an idle endpoint starts sending, a busy one keeps
    /// them for after its current request.
    private func dispatch(_ claimed: [ClaimedHookEvent]) {
        var byEndpoint: [Endpoint: [ClaimedHookEvent]] = [:]
        var order: [Endpoint] = []
        for row in claimed {
            let endpoint = Endpoint(appID: row.appID, url: row.url)
            if byEndpoint[endpoint] == nil { order.append(endpoint) }
            byEndpoint[endpoint, default: []].append(row)
        }
        for endpoint in order {
            let rows = byEndpoint[endpoint] ?? []
            let idle = state.withLock { s -> Bool in
                if s.busy.contains(endpoint) {
                    s.held[endpoint, default: []] += rows
                    return false
                }
                s.busy.insert(endpoint)
                return true
            }
            if idle { Task { await drain(endpoint, rows) } }
        }
    }

    /// Sends an endpoint's rows batch after batch, then whatever was held for it meanwhile. A
    /// failed request reschedules the rows waiting behind it too, unsent: the endpoint is
    /// failing, and no row stays claimed here longer than one request.
    private func drain(_ endpoint: Endpoint, _ first: [ClaimedHookEvent]) async {
        var rows = first
        while true {
            while !rows.isEmpty {
                let batch = Array(rows.prefix(maxBatchEvents))
                rows.removeFirst(batch.count)
                if await !send(endpoint, batch) {
                    await reschedule(rows)
                    rows = []
                }
            }
            rows = state.withLock { s in
                let held = s.held.removeValue(forKey: endpoint) ?? []
                if held.isEmpty { s.busy.remove(endpoint) }
                return held
            }
            if rows.isEmpty { return }
        }
    }

    /// Posts one batch; false when the endpoint failed it (the rows are rescheduled).
    private func send(_ endpoint: Endpoint, _ batch: [ClaimedHookEvent]) async -> Bool {
        guard let target = resolve(endpoint.appID, endpoint.url) else {
            try? await store.removeHookEvents(ids: batch.map(\.id))
            statistics.dropped(events: batch.count)
            return true
        }
        let events = batch.compactMap { try? JSONParser.parse($0.event) }
        let request = Self.sign(
            events, attempt: (batch.map(\.attempts).max() ?? 0) + 1, target: target, wallMillis: wallClock(), timeout: requestTimeout)
        let answer = await post(request)
        if answer?.succeeded == true {
            try? await store.removeHookEvents(ids: batch.map(\.id))
            statistics.delivered(events: batch.count)
            return true
        }
        statistics.failedRequest()
        await reschedule(batch)
        return false
    }

    /// Schedules rows' next attempt, or gives them up past the window.
    private func reschedule(_ rows: [ClaimedHookEvent]) async {
        guard !rows.isEmpty else { return }
        let (retries, givenUp) = policy.failed(rows, now: wallClock())
        try? await store.retryHookEvents(retries)
        try? await store.removeHookEvents(ids: givenUp)
        statistics.dropped(events: givenUp.count)
        if let next = retries.map(\.nextAttemptAt).min() { wake(after: max(0, next - wallClock())) }
    }

    private func post(_ request: ChatHookRequest) async -> ChatHookAnswer? {
        await withCheckedContinuation { continuation in
            poster.post(request) { answer in continuation.resume(returning: answer) }
        }
    }

    /// The request body and signature endpoints already know from ``ChatHookQueue``.
    static func sign(_ events: [JSONValue], attempt: Int, target: ChatHookQueue.Target, wallMillis: Int64, timeout: Int) -> ChatHookRequest
    {
        let body = JSONWriter.serialize(
            .object([
                "app_id": .string(target.appID), "time_ms": .number(String(wallMillis)), "attempt": .int(attempt),
                "events": .array(events)
            ]))
        let headers = ChatHookSignature.headers(key: target.key, secret: target.secret, timestamp: wallMillis / 1000, body: body)
        return ChatHookRequest(url: target.url, headers: headers, body: body, timeoutMilliseconds: timeout)
    }
}
