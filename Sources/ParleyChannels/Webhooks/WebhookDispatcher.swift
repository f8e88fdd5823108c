import Dispatch
import Synchronization

/// Delivers webhooks in the background: the hub's `enqueue` only appends under a short
/// lock; a timer drives the `WebhookQueue` and each request is handed to the poster, which
/// answers later without holding a thread.
public final class WebhookDispatcher: WebhookSink, Sendable {
    private struct State: Sendable {
        var queue: WebhookQueue
        /// The deadline the latest timer was set for; an earlier deadline arms another one.
        var armedFor: Int64?
    }

    private let state: Mutex<State>
    private let poster: any WebhookPoster
    private let metrics: ChannelsMetrics
    private let clock: @Sendable () -> Int64
    private let wallClock: @Sendable () -> Int64
    private let timers = DispatchQueue(label: "parley.webhooks.timer")

    /// Creates a dispatcher; clocks are monotonic and wall milliseconds.
    public init(
        config: ChannelsConfig, poster: any WebhookPoster, metrics: ChannelsMetrics,
        clock: @escaping @Sendable () -> Int64, wallClock: @escaping @Sendable () -> Int64
    ) {
        state = Mutex(
            State(
                queue: WebhookQueue(
                    batchWindow: Int64(config.webhookBatchMilliseconds),
                    leaveDelay: Int64(config.webhookLeaveDelayMilliseconds),
                    retryWindow: Int64(config.webhookRetryWindowMilliseconds))))
        self.poster = poster
        self.metrics = metrics
        self.clock = clock
        self.wallClock = wallClock
    }

    public func enqueue(app: AppConfig, event: WebhookEvent) {
        guard !app.webhooks.isEmpty else { return }
        let now = clock()
        let arm: Int64? = state.withLock { s in
            s.queue.enqueue(app: app, event: event, now: now)
            metrics.webhookQueued.store(s.queue.count, ordering: .relaxed)
            return armIfNeeded(&s)
        }
        if let arm { schedule(after: arm) }
    }

    /// Abandoned requests (gave up after the retry window).
    public var abandoned: Int { state.withLock { $0.queue.abandoned } }

    private func armIfNeeded(_ s: inout State) -> Int64? {
        guard let deadline = s.queue.nextDeadline else { return nil }
        if let armed = s.armedFor, armed <= deadline { return nil }
        s.armedFor = deadline
        return max(0, deadline - clock())
    }

    private func schedule(after milliseconds: Int64) {
        timers.asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) { [self] in fire() }
    }

    private func fire() {
        let now = clock()
        let (deliveries, arm): ([WebhookDelivery], Int64?) = state.withLock { s in
            s.armedFor = nil
            let d = s.queue.tick(now: now, wallMillis: wallClock())
            metrics.webhookQueued.store(s.queue.count, ordering: .relaxed)
            return (d, armIfNeeded(&s))
        }
        if let arm { schedule(after: arm) }
        for delivery in deliveries {
            poster.post(delivery) { [self] status in report(delivery, status: status) }
        }
    }

    private func report(_ delivery: WebhookDelivery, status: Int?) {
        let traffic = delivery.appID.isEmpty ? metrics.unattributed : metrics.app(delivery.appID)
        if let status, (200..<300).contains(status) {
            ChannelsMetrics.add(traffic.webhookDelivered)
        } else {
            ChannelsMetrics.add(traffic.webhookFailures)
            metrics.notices.post(
                "webhook_failed", "webhook delivery failed; it will be retried within the retry window",
                [
                    ("endpoint", "\(delivery.url.host):\(delivery.url.port)"), ("app_key", delivery.key),
                    ("status", status.map(String.init) ?? "no answer"), ("attempt", String(delivery.attempt))
                ])
        }
        let now = clock()
        let arm: Int64? = state.withLock { s in
            s.queue.result(id: delivery.id, status: status, now: now)
            metrics.webhookQueued.store(s.queue.count, ordering: .relaxed)
            return armIfNeeded(&s)
        }
        if let arm { schedule(after: arm) }
    }
}
