/// A moment's values of ``AppTraffic`` (or their sum over apps).
public struct TrafficCounts: Sendable, Equatable {
    /// Open Pusher connections.
    public var connections = 0
    /// Subscriptions held.
    public var subscriptions = 0
    /// Messages received from clients.
    public var messagesIn = 0
    /// Frames queued to clients.
    public var messagesOut = 0
    /// Bytes received from clients.
    public var bytesIn = 0
    /// Bytes queued to clients.
    public var bytesOut = 0
    /// Events published.
    public var eventsPublished = 0
    /// Connections closed with 4100.
    public var slowConsumersDropped = 0
    /// Connections refused with 4004.
    public var connectionsRefused = 0
    /// HTTP API requests.
    public var apiRequests = 0
    /// HTTP API requests refused.
    public var apiErrors = 0
    /// Webhook requests delivered.
    public var webhookDelivered = 0
    /// Webhook attempts that failed.
    public var webhookFailures = 0

    /// Zeros.
    public init() {}

    /// The given values.
    public init(
        connections: Int, subscriptions: Int, messagesIn: Int, messagesOut: Int, bytesIn: Int, bytesOut: Int,
        eventsPublished: Int, slowConsumersDropped: Int, connectionsRefused: Int, apiRequests: Int, apiErrors: Int,
        webhookDelivered: Int, webhookFailures: Int
    ) {
        self.connections = connections
        self.subscriptions = subscriptions
        self.messagesIn = messagesIn
        self.messagesOut = messagesOut
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
        self.eventsPublished = eventsPublished
        self.slowConsumersDropped = slowConsumersDropped
        self.connectionsRefused = connectionsRefused
        self.apiRequests = apiRequests
        self.apiErrors = apiErrors
        self.webhookDelivered = webhookDelivered
        self.webhookFailures = webhookFailures
    }

    /// Field by field sum.
    public static func + (a: TrafficCounts, b: TrafficCounts) -> TrafficCounts {
        TrafficCounts(
            connections: a.connections + b.connections, subscriptions: a.subscriptions + b.subscriptions,
            messagesIn: a.messagesIn + b.messagesIn, messagesOut: a.messagesOut + b.messagesOut,
            bytesIn: a.bytesIn + b.bytesIn, bytesOut: a.bytesOut + b.bytesOut,
            eventsPublished: a.eventsPublished + b.eventsPublished,
            slowConsumersDropped: a.slowConsumersDropped + b.slowConsumersDropped,
            connectionsRefused: a.connectionsRefused + b.connectionsRefused,
            apiRequests: a.apiRequests + b.apiRequests, apiErrors: a.apiErrors + b.apiErrors,
            webhookDelivered: a.webhookDelivered + b.webhookDelivered,
            webhookFailures: a.webhookFailures + b.webhookFailures)
    }
}
