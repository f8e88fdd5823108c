import Synchronization

/// One app's counters and gauges: what `/metrics` reports under `app="<id>"`.
///
/// A connection takes its app's object once, when it opens, and adds to it with relaxed
/// atomics; nothing is looked up per message.
public final class AppTraffic: Sendable {
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
    /// Connections refused with 4004 at the app's connection quota.
    public let connectionsRefused = Atomic<Int>(0)
    /// HTTP API requests answered.
    public let apiRequests = Atomic<Int>(0)
    /// HTTP API requests refused with a 4xx.
    public let apiErrors = Atomic<Int>(0)
    /// Webhook requests delivered with a 2xx.
    public let webhookDelivered = Atomic<Int>(0)
    /// Webhook requests that failed (each attempt).
    public let webhookFailures = Atomic<Int>(0)

    /// Zeroed counters.
    public init() {}

    /// The values now.
    public func snapshot() -> TrafficCounts {
        TrafficCounts(
            connections: connections.load(ordering: .relaxed), subscriptions: subscriptions.load(ordering: .relaxed),
            messagesIn: messagesIn.load(ordering: .relaxed), messagesOut: messagesOut.load(ordering: .relaxed),
            bytesIn: bytesIn.load(ordering: .relaxed), bytesOut: bytesOut.load(ordering: .relaxed),
            eventsPublished: eventsPublished.load(ordering: .relaxed),
            slowConsumersDropped: slowConsumersDropped.load(ordering: .relaxed),
            connectionsRefused: connectionsRefused.load(ordering: .relaxed),
            apiRequests: apiRequests.load(ordering: .relaxed), apiErrors: apiErrors.load(ordering: .relaxed),
            webhookDelivered: webhookDelivered.load(ordering: .relaxed),
            webhookFailures: webhookFailures.load(ordering: .relaxed))
    }
}
