/// Where the hub drops webhook events. Must return at once: delivery never blocks the hub.
public protocol WebhookSink: AnyObject, Sendable {
    /// Queues an event of an app for delivery to its matching endpoints.
    func enqueue(app: AppConfig, event: WebhookEvent)
}
