import Synchronization

/// Counters and gauges of the channels service, rendered in Prometheus text format.
public final class ChannelsMetrics: Sendable {
    /// Open Pusher connections.
    public let connections = Atomic<Int>(0)
    /// Channel subscriptions held by connections.
    public let subscriptions = Atomic<Int>(0)
    /// Messages received from clients.
    public let messagesIn = Atomic<Int>(0)
    /// Frames queued to clients.
    public let messagesOut = Atomic<Int>(0)
    /// Bytes received from clients.
    public let bytesIn = Atomic<Int>(0)
    /// Bytes queued to clients.
    public let bytesOut = Atomic<Int>(0)
    /// Events published (HTTP API and client events).
    public let eventsPublished = Atomic<Int>(0)
    /// Connections closed with 4100 because they could not keep up.
    public let slowConsumersDropped = Atomic<Int>(0)
    /// HTTP API requests answered, and those refused.
    public let apiRequests = Atomic<Int>(0)
    /// HTTP API requests refused with a 4xx.
    public let apiErrors = Atomic<Int>(0)
    /// Webhook events waiting to be delivered.
    public let webhookQueued = Atomic<Int>(0)
    /// Webhook requests delivered with a 2xx.
    public let webhookDelivered = Atomic<Int>(0)
    /// Webhook requests that failed (each attempt).
    public let webhookFailures = Atomic<Int>(0)

    /// Creates zeroed metrics.
    /// Events for the operator's log (webhook failures, quota refusals).
    public let notices = ChannelsNotices()

    public init() {}

    /// Adds to a counter.
    public static func add(_ counter: borrowing Atomic<Int>, _ n: Int = 1) {
        counter.wrappingAdd(n, ordering: .relaxed)
    }

    /// The Prometheus text exposition of every metric; `channels` is the occupied-channel count.
    public func render(channels: Int) -> String {
        var out = PrometheusText()
        out.add("parley_channels_connections", "gauge", "Open Pusher protocol connections.", connections.load(ordering: .relaxed))
        out.add("parley_channels_subscriptions", "gauge", "Channel subscriptions held by connections.", subscriptions.load(ordering: .relaxed))
        out.add("parley_channels_channels", "gauge", "Occupied channels.", channels)
        out.add("parley_channels_messages_in_total", "counter", "Messages received from clients.", messagesIn.load(ordering: .relaxed))
        out.add("parley_channels_messages_out_total", "counter", "Frames queued to clients.", messagesOut.load(ordering: .relaxed))
        out.add("parley_channels_bytes_in_total", "counter", "Bytes received from clients.", bytesIn.load(ordering: .relaxed))
        out.add("parley_channels_bytes_out_total", "counter", "Bytes queued to clients.", bytesOut.load(ordering: .relaxed))
        out.add("parley_channels_events_published_total", "counter", "Events published.", eventsPublished.load(ordering: .relaxed))
        out.add("parley_channels_slow_consumers_dropped_total", "counter", "Connections closed with 4100 for not keeping up.", slowConsumersDropped.load(ordering: .relaxed))
        out.add("parley_channels_api_requests_total", "counter", "HTTP API requests.", apiRequests.load(ordering: .relaxed))
        out.add("parley_channels_api_errors_total", "counter", "HTTP API requests refused.", apiErrors.load(ordering: .relaxed))
        out.add("parley_channels_webhook_queue", "gauge", "Webhook events waiting for delivery.", webhookQueued.load(ordering: .relaxed))
        out.add("parley_channels_webhook_delivered_total", "counter", "Webhook requests delivered.", webhookDelivered.load(ordering: .relaxed))
        out.add("parley_channels_webhook_failures_total", "counter", "Webhook request attempts that failed.", webhookFailures.load(ordering: .relaxed))
        return out.text
    }
}
