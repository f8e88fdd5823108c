import ParleyWire

/// Webhook batching, leave-delay suppression and retry (spec section 8), clock-injected
/// and I/O-free: events go in, signed deliveries come out of `tick`, results come back.
///
/// - Events of an app are gathered for `batchWindow` ms into one request per endpoint.
/// - `channel_vacated` and `member_removed` wait `leaveDelay` ms; if the channel is occupied
///   again (or the member re-added) meanwhile, both halves of the pair are dropped.
/// - A failed request is retried with exponential backoff (1 s doubling, at most 60 s) until
///   `retryWindow` ms after its first attempt. Each attempt is re-stamped and re-signed.
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

    private var pending: [Pending] = []
    private var delayed: [Pending] = []
    private var inFlight: [Int: Retry] = [:]
    private var retries: [Retry] = []
    private var nextID = 1
    /// Requests given up after the retry window.
    public private(set) var abandoned = 0

    /// Creates an empty queue.
    public init(batchWindow: Int64 = 50, leaveDelay: Int64 = 3000, retryWindow: Int64 = 300_000) {
        self.batchWindow = batchWindow
        self.leaveDelay = leaveDelay
        self.retryWindow = retryWindow
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
            if let i = delayed.firstIndex(where: { $0.app.id == app.id && $0.event.kind == .channelVacated && $0.event.channel == event.channel }) {
                delayed.remove(at: i)
                return
            }
        case .memberAdded:
            if let i = delayed.firstIndex(where: {
                $0.app.id == app.id && $0.event.kind == .memberRemoved && $0.event.channel == event.channel && $0.event.userID == event.userID
            }) {
                delayed.remove(at: i)
                return
            }
        default:
            break
        }
        pending.append(Pending(app: app, event: event, due: now + batchWindow))
    }

    /// When `tick` next has work, if ever.
    public var nextDeadline: Int64? {
        let candidates = [pending.map(\.due).min(), delayed.map(\.due).min(), retries.map(\.due).min()].compactMap { $0 }
        return candidates.min()
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
                    deliveries.append(start(Retry(app: app, url: hook.url, events: accepted, firstAttempt: now, attempt: 1, due: now), wallMillis: wallMillis))
                }
            }
        }
        let (dueRetries, waiting) = retries.partitioned { $0.due <= now }
        retries = waiting
        for retry in dueRetries { deliveries.append(start(retry, wallMillis: wallMillis)) }
        return deliveries
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
        return WebhookDelivery(id: id, url: retry.url, key: retry.app.key, body: body,
                               signature: PusherSignature.webhookSignature(secret: retry.app.secret, body: body), attempt: retry.attempt)
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
