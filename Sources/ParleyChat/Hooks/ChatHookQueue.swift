import ParleyChannels
import ParleyWire

/// Batching and retrying of chat hook deliveries, I/O-free with time passed in: events go in
/// per endpoint, signed requests come out of `tick`, results come back through `result`.
///
/// - An endpoint's events are gathered for `batchWindow` ms and sent as one request (at most
///   `maxBatchEvents` events; the rest go in the next one).
/// - One request per endpoint is out at a time, so an endpoint sees its events in order and a
///   slow one gets one growing batch instead of a pile of parallel requests.
/// - A failed request (no answer, or not 2xx) is retried with exponential backoff (`retryBase`
///   ms doubling, at most 60 s), re-stamped and re-signed each time, until `retryWindow` ms
///   after its first attempt; then its events are given up (`abandoned`).
/// - At most `capacity` events wait in all; an event beyond that is dropped (`dropped`), so a
///   dead endpoint costs bounded memory and a send never waits for room in the queue.
public struct ChatHookQueue: Sendable {
    /// Who signs and where to: one endpoint of one app.
    public struct Target: Sendable, Hashable {
        /// The app's id.
        public var appID: String
        /// The app's key (`X-Parley-Key`).
        public var key: String
        /// The app's signing secret.
        public var secret: String
        /// The endpoint.
        public var url: WebhookURL

        /// Creates a target.
        public init(appID: String, key: String, secret: String, url: WebhookURL) {
            self.appID = appID
            self.key = key
            self.secret = secret
            self.url = url
        }
    }

    /// One request ready to POST.
    public struct Delivery: Sendable {
        /// Identifies the request when its result comes back.
        public var id: Int
        /// 1 for the first attempt.
        public var attempt: Int
        /// The number of events in it.
        public var eventCount: Int
        /// The signed request.
        public var request: ChatHookRequest
    }

    private struct Request {
        var id = 0
        var events: [JSONValue]
        var attempt = 1
        var firstAttempt: Int64
        var due: Int64
        var inFlight = false
    }

    private struct Line {
        var target: Target
        var events: [JSONValue] = []
        var oldestQueuedAt: Int64?
        var current: Request?
    }

    private struct Endpoint: Hashable {
        var appID: String
        var url: WebhookURL
    }

    /// Milliseconds an endpoint's events are gathered before they are sent.
    public let batchWindow: Int64
    /// Milliseconds a failing request keeps being retried.
    public let retryWindow: Int64
    /// Milliseconds before the first retry.
    public let retryBase: Int64
    /// Most events waiting in all.
    public let capacity: Int
    /// Most events in one request.
    public let maxBatchEvents: Int
    /// Milliseconds the poster waits for an answer.
    public let requestTimeout: Int

    private var lines: [Endpoint: Line] = [:]
    private var order: [Endpoint] = []
    private var nextID = 1
    /// Events waiting (queued or in a request not yet answered).
    public private(set) var count = 0
    /// Events dropped because the queue was full.
    public private(set) var dropped = 0
    /// Events given up after the retry window.
    public private(set) var abandoned = 0

    /// Creates an empty queue.
    public init(
        batchWindow: Int64 = 100, retryWindow: Int64 = 300_000, retryBase: Int64 = 1000, capacity: Int = 10_000,
        maxBatchEvents: Int = 100, requestTimeout: Int = 10_000
    ) {
        self.batchWindow = max(0, batchWindow)
        self.retryWindow = max(0, retryWindow)
        self.retryBase = max(1, retryBase)
        self.capacity = max(1, capacity)
        self.maxBatchEvents = max(1, maxBatchEvents)
        self.requestTimeout = max(1, requestTimeout)
    }

    /// Queues one event (its JSON object) for an endpoint; false when the queue is full and the
    /// event was dropped.
    @discardableResult
    public mutating func enqueue(_ event: JSONValue, to target: Target, now: Int64) -> Bool {
        guard count < capacity else {
            dropped += 1
            return false
        }
        let endpoint = Endpoint(appID: target.appID, url: target.url)
        if lines[endpoint] == nil {
            lines[endpoint] = Line(target: target)
            order.append(endpoint)
        }
        // The newest credentials sign: a reload may have rotated the secret.
        lines[endpoint]?.target = target
        lines[endpoint]?.events.append(event)
        if lines[endpoint]?.oldestQueuedAt == nil { lines[endpoint]?.oldestQueuedAt = now }
        count += 1
        return true
    }

    /// When `tick` next has work, if ever (requests out wait for their `result`).
    public var nextDeadline: Int64? {
        var earliest: Int64?
        for line in lines.values {
            let due: Int64?
            if let current = line.current {
                due = current.inFlight ? nil : current.due
            } else {
                due = line.oldestQueuedAt.map { $0 + batchWindow }
            }
            if let due, earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        return earliest
    }

    /// The requests due at `now`, signed with `wallMillis` (its seconds are the timestamp).
    public mutating func tick(now: Int64, wallMillis: Int64) -> [Delivery] {
        var deliveries: [Delivery] = []
        for endpoint in order {
            guard var line = lines[endpoint] else { continue }
            if line.current == nil, let oldest = line.oldestQueuedAt, oldest + batchWindow <= now {
                let taken = Array(line.events.prefix(maxBatchEvents))
                line.events.removeFirst(taken.count)
                // What did not fit goes as soon as this request is answered.
                line.oldestQueuedAt = line.events.isEmpty ? nil : oldest
                line.current = Request(events: taken, firstAttempt: now, due: now)
            }
            if var request = line.current, !request.inFlight, request.due <= now {
                request.id = nextID
                nextID += 1
                request.inFlight = true
                line.current = request
                deliveries.append(Self.sign(request, target: line.target, wallMillis: wallMillis, timeout: requestTimeout))
            }
            lines[endpoint] = line
        }
        return deliveries
    }

    /// Reports a request's outcome: success ends it; a failure is retried or given up.
    public mutating func result(id: Int, succeeded: Bool, now: Int64) {
        guard let endpoint = order.first(where: { lines[$0]?.current?.id == id }), var line = lines[endpoint],
            var request = line.current
        else { return }
        if succeeded {
            count -= request.events.count
            line.current = nil
        } else {
            let backoff = min(Int64(60_000), retryBase << Int64(min(request.attempt - 1, 16)))
            if now + backoff - request.firstAttempt > retryWindow {
                abandoned += request.events.count
                count -= request.events.count
                line.current = nil
            } else {
                request.attempt += 1
                request.due = now + backoff
                request.inFlight = false
                line.current = request
            }
        }
        if line.current == nil, line.events.isEmpty {
            lines[endpoint] = nil
            order.removeAll { $0 == endpoint }
        } else {
            lines[endpoint] = line
        }
    }

    private static func sign(_ request: Request, target: Target, wallMillis: Int64, timeout: Int) -> Delivery {
        let body = JSONWriter.serialize(
            .object([
                "app_id": .string(target.appID), "time_ms": .number(String(wallMillis)), "attempt": .int(request.attempt),
                "events": .array(request.events)
            ]))
        let headers = ChatHookSignature.headers(key: target.key, secret: target.secret, timestamp: wallMillis / 1000, body: body)
        return Delivery(
            id: request.id, attempt: request.attempt, eventCount: request.events.count,
            request: ChatHookRequest(url: target.url, headers: headers, body: body, timeoutMilliseconds: timeout))
    }
}
