import ParleyWire

/// Webhook batching, leave-delay suppression and retry (spec section 8), clock-injected
/// and I/O-free: events go in, signed deliveries come out of `tick`, results come back.
///
/// - Events of an app are gathered for `batchWindow` ms into one request per endpoint.
/// - `channel_vacated` and `member_removed` wait `leaveDelay` ms; if the channel is occupied
///   again (or the member re-added) meanwhile, both halves of the pair are dropped.
/// - A failed request is retried with exponential backoff (1 s doubling, at most 60 s) until
///   `retryWindow` ms after its first attempt. Each attempt is re-stamped and re-signed.
/// - At most `maxInFlightPerEndpoint` requests to one endpoint (app and URL) are out at once.
///   A slow endpoint would otherwise get a new request every batch window, each holding a
///   sending thread until its timeout; further events for it wait in one batch that grows
///   until a request comes back.
public struct WebhookQueue: Sendable {
    struct Pending: Sendable {
        var app: AppConfig
        var event: WebhookEvent
        var due: Int64
    }

    struct Retry: Sendable {
        var app: AppConfig
        var url: WebhookURL
        var events: [WebhookEvent]
        var firstAttempt: Int64
        var attempt: Int
        var due: Int64
    }

    /// Milliseconds events are gathered before sending.
    public let batchWindow: Int64
    /// Milliseconds vacated/member_removed wait for a quick return.
    public let leaveDelay: Int64
    /// Milliseconds a failing request keeps being retried.
    public let retryWindow: Int64
    /// Requests to one endpoint that may be out at once.
    public let maxInFlightPerEndpoint: Int

    private var pending: [Pending] = []
    private var delayed: [Pending] = []
    private var inFlight: [Int: Retry] = [:]
    private var retries: [Retry] = []
    private var nextID = 1
    /// Requests given up after the retry window.
    public private(set) var abandoned = 0

    /// Creates an empty queue.
    public init(batchWindow: Int64 = 50, leaveDelay: Int64 = 3000, retryWindow: Int64 = 300_000, maxInFlightPerEndpoint: Int = 4) {
        self.batchWindow = batchWindow
        self.leaveDelay = leaveDelay
        self.retryWindow = retryWindow
        self.maxInFlightPerEndpoint = max(1, maxInFlightPerEndpoint)
    }

    /// Events waiting (batched, delayed or to be retried).
    public var count: Int { pending.count + delayed.count + retries.reduce(0) { $0 + $1.events.count } }

    /// Adds an event of an app that has at least one webhook.
    public mutating func enqueue(app: AppConfig, event: WebhookEvent, now: Int64) {
        guard !app.webhooks.isEmpty else { return }
        switch event.kind {
        case .channelVacated, .memberRemoved:
            delayed.append(Pending(app: app, event: event, due: now + leaveDelay))
            return
        case .channelOccupied:
            if let i = delayed.firstIndex(where: {
                $0.app.id == app.id && $0.event.kind == .channelVacated && $0.event.channel == event.channel
            }) {
                delayed.remove(at: i)
                return
            }
        case .memberAdded:
            if let i = delayed.firstIndex(where: {
                $0.app.id == app.id && $0.event.kind == .memberRemoved && $0.event.channel == event.channel
                    && $0.event.userID == event.userID
            }) {
                delayed.remove(at: i)
                return
            }
        default:
            break
        }
        pending.append(Pending(app: app, event: event, due: now + batchWindow))
    }

    /// When `tick` next has work, if ever. Requests waiting for a busy endpoint are left out:
    /// `result` frees their slot, and the caller asks again then.
    public var nextDeadline: Int64? {
        let outstanding = outstandingByEndpoint()
        let sendable = retries.filter { outstanding[Endpoint($0), default: 0] < maxInFlightPerEndpoint }
        let candidates = [pending.map(\.due).min(), delayed.map(\.due).min(), sendable.map(\.due).min()].compactMap { $0 }
        return candidates.min()
    }

    /// Requests out at once to this endpoint.
    func inFlight(app: String, url: WebhookURL) -> Int {
        outstandingByEndpoint().first { $0.key.app == app && $0.key.url == url }?.value ?? 0
    }

    /// The deliveries due at `now`; `wallMillis` stamps `time_ms`.
    public mutating func tick(now: Int64, wallMillis: Int64) -> [WebhookDelivery] {
        let (dueDelayed, stillDelayed) = delayed.partitioned { $0.due <= now }
        delayed = stillDelayed
        pending += dueDelayed.map { Pending(app: $0.app, event: $0.event, due: now) }
        var deliveries: [WebhookDelivery] = []
        // A batch goes out once its oldest event has waited the window; it takes all of the app's events.
        let readyApps = Set(pending.filter { $0.due <= now }.map(\.app.id))
        if !readyApps.isEmpty {
            let (ready, rest) = pending.partitioned { readyApps.contains($0.app.id) }
            pending = rest
            var order: [String] = []
            var byApp: [String: (app: AppConfig, events: [WebhookEvent])] = [:]
            for item in ready {
                if byApp[item.app.id] == nil { order.append(item.app.id); byApp[item.app.id] = (item.app, []) }
                byApp[item.app.id]?.events.append(item.event)
            }
            for id in order {
                guard let (app, events) = byApp[id] else { continue }
                for hook in app.webhooks {
                    let accepted = events.filter { hook.accepts($0.kind, channel: $0.channel) }
                    guard !accepted.isEmpty else { continue }
                    addBatch(Retry(app: app, url: hook.url, events: accepted, firstAttempt: now, attempt: 1, due: now))
                }
            }
        }
        // Oldest first: retries and batches that waited for their endpoint, then fresh batches.
        var outstanding = outstandingByEndpoint()
        var kept: [Retry] = []
        for retry in retries {
            let endpoint = Endpoint(retry)
            guard retry.due <= now, outstanding[endpoint, default: 0] < maxInFlightPerEndpoint else {
                kept.append(retry)
                continue
            }
            outstanding[endpoint, default: 0] += 1
            deliveries.append(start(retry, wallMillis: wallMillis))
        }
        retries = kept
        return deliveries
    }

    /// Queues a fresh batch to be sent by this tick; one still waiting for the same busy
    /// endpoint takes its events instead, so a slow endpoint gets one growing batch.
    private mutating func addBatch(_ batch: Retry) {
        let endpoint = Endpoint(batch)
        let busy = outstandingByEndpoint()[endpoint, default: 0] >= maxInFlightPerEndpoint
        if busy, let waiting = retries.lastIndex(where: { $0.attempt == 1 && Endpoint($0) == endpoint }) {
            retries[waiting].events += batch.events
            return
        }
        retries.append(batch)
    }

    /// Requests out at once, per endpoint.
    private func outstandingByEndpoint() -> [Endpoint: Int] {
        Dictionary(grouping: inFlight.values, by: Endpoint.init).mapValues(\.count)
    }

    /// One webhook target of one app.
    private struct Endpoint: Hashable {
        var app: String
        var url: WebhookURL
        init(_ retry: Retry) {
            app = retry.app.id
            url = retry.url
        }
    }

    /// Reports a delivery's outcome: 2xx is done; anything else is retried or given up.
    public mutating func result(id: Int, status: Int?, now: Int64) {
        guard var retry = inFlight.removeValue(forKey: id) else { return }
        if let status, (200..<300).contains(status) { return }
        let backoff = min(Int64(60_000), Int64(1000) << Int64(min(retry.attempt - 1, 6)))
        guard now + backoff - retry.firstAttempt <= retryWindow else {
            abandoned += 1
            return
        }
        retry.attempt += 1
        retry.due = now + backoff
        retries.append(retry)
    }

    private mutating func start(_ retry: Retry, wallMillis: Int64) -> WebhookDelivery {
        let id = nextID
        nextID += 1
        inFlight[id] = retry
        let body = JSONWriter.serialize(.object(["time_ms": .number(String(wallMillis)), "events": .array(retry.events.map(\.json))]))
        return WebhookDelivery(
            id: id, url: retry.url, key: retry.app.key, body: body,
            signature: PusherSignature.webhookSignature(secret: retry.app.secret, body: body), attempt: retry.attempt,
            appID: retry.app.id)
    }
}

extension Array {
    /// Splits into the elements that satisfy the predicate and those that don't, keeping order.
    func partitioned(_ belongsInFirst: (Element) -> Bool) -> ([Element], [Element]) {
        var first: [Element] = [], second: [Element] = []
        for element in self {
            if belongsInFirst(element) { first.append(element) } else { second.append(element) }
        }
        return (first, second)
    }
}
