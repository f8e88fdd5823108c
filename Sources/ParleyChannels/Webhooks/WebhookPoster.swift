/// Sends one webhook request and reports the HTTP status (nil when none came back).
///
/// `post` must return at once and never block its caller: the server's poster runs the
/// request on the event loops (`HTTPClientWebhookPoster` in ParleyServer), so a slow
/// endpoint holds a connection and a timer, not a thread.
public protocol WebhookPoster: Sendable {
    /// Starts POSTing the delivery; `completion` gets the response status, or nil if none was
    /// received, exactly once and from any thread.
    func post(_ delivery: WebhookDelivery, completion: @escaping @Sendable (Int?) -> Void)
}

/// A poster for a service that was given none: every delivery fails at once (and is retried
/// and finally abandoned as an unreachable endpoint would be).
public struct UnconnectedWebhookPoster: WebhookPoster {
    /// Creates the poster.
    public init() {}

    public func post(_ delivery: WebhookDelivery, completion: @escaping @Sendable (Int?) -> Void) { completion(nil) }
}
