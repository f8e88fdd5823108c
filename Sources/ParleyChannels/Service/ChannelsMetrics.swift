import Synchronization

/// Counters and gauges of the channels service, per app, rendered in Prometheus text format.
///
/// Every family carries `app="<id>"`, one sample per hosted app (an app removed by a reload
/// keeps its series until restart, so its counters never go back); summing over `app` gives
/// the server's total. HTTP API requests that name no hosted app are counted in a sample
/// without the label, so that sum stays whole. Only configured app ids ever become labels:
/// nothing a client sends can add a series.
public final class ChannelsMetrics: Sendable {
    private let byApp = Mutex<[String: AppTraffic]>([:])
    /// HTTP API requests that named no hosted app (the sample without an `app` label).
    public let unattributed = AppTraffic()
    /// Webhook events waiting to be delivered (one queue for every app).
    public let webhookQueued = Atomic<Int>(0)
    /// Events for the operator's log (webhook failures, quota refusals).
    public let notices = ChannelsNotices()

    /// Creates zeroed metrics.
    public init() {}

    /// The counters of the app with this id, created at first use. Take it once per
    /// connection or publish, not per message: this takes a lock.
    public func app(_ id: String) -> AppTraffic {
        byApp.withLock { table in
            if let existing = table[id] { return existing }
            let fresh = AppTraffic()
            table[id] = fresh
            return fresh
        }
    }

    /// Adds to a counter.
    public static func add(_ counter: borrowing Atomic<Int>, _ n: Int = 1) {
        counter.wrappingAdd(n, ordering: .relaxed)
    }

    /// Every app's values by id.
    public func byAppSnapshot() -> [(id: String, counts: TrafficCounts)] {
        byApp.withLock { table in table.map { ($0.key, $0.value.snapshot()) } }.sorted { $0.id < $1.id }
    }

    /// The sum over every app and the unattributed requests.
    public func totals() -> TrafficCounts {
        byAppSnapshot().reduce(unattributed.snapshot()) { $0 + $1.counts }
    }

    /// The Prometheus text exposition of every metric. `apps` are the hosted apps' ids (each
    /// gets its series even before its first connection); `channels` is the occupied-channel
    /// count per app id.
    public func render(apps: [String], channels: [String: Int]) -> String {
        for id in apps { _ = app(id) }
        let rows = byAppSnapshot()
        let loose = unattributed.snapshot()
        var out = PrometheusText()
        func family(
            _ name: String, _ type: String, _ help: String, unattributed: Bool = false,
            _ value: (String, TrafficCounts) -> Int
        ) {
            out.family(name, type, help)
            for row in rows { out.sample(name, [("app", row.id)], value(row.id, row.counts)) }
            if unattributed { out.sample(name, [], value("", loose)) }
        }
        family("parley_channels_connections", "gauge", "Open Pusher protocol connections.") { $1.connections }
        family("parley_channels_subscriptions", "gauge", "Channel subscriptions held by connections.") { $1.subscriptions }
        family("parley_channels_channels", "gauge", "Occupied channels.") { id, _ in channels[id] ?? 0 }
        family("parley_channels_messages_in_total", "counter", "Messages received from clients.") { $1.messagesIn }
        family("parley_channels_messages_out_total", "counter", "Frames queued to clients.") { $1.messagesOut }
        family("parley_channels_bytes_in_total", "counter", "Bytes received from clients.") { $1.bytesIn }
        family("parley_channels_bytes_out_total", "counter", "Bytes queued to clients.") { $1.bytesOut }
        family("parley_channels_events_published_total", "counter", "Events published.") { $1.eventsPublished }
        family("parley_channels_slow_consumers_dropped_total", "counter", "Connections closed with 4100 for not keeping up.") {
            $1.slowConsumersDropped
        }
        family("parley_channels_connections_refused_total", "counter", "Connections refused with 4004 at the app's max_connections.") {
            $1.connectionsRefused
        }
        family(
            "parley_channels_api_requests_total", "counter", "HTTP API requests (no app label: naming no hosted app).",
            unattributed: true
        ) { $1.apiRequests }
        family(
            "parley_channels_api_errors_total", "counter", "HTTP API requests refused (no app label: naming no hosted app).",
            unattributed: true
        ) { $1.apiErrors }
        family("parley_channels_webhook_delivered_total", "counter", "Webhook requests delivered.") { $1.webhookDelivered }
        family("parley_channels_webhook_failures_total", "counter", "Webhook request attempts that failed.") { $1.webhookFailures }
        out.add(
            "parley_channels_webhook_queue", "gauge", "Webhook events waiting for delivery (all apps).",
            webhookQueued.load(ordering: .relaxed))
        return out.text
    }
}
