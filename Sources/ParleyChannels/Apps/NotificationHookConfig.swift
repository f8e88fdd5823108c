/// The endpoint told, in batches, which members need a push notification for a room.
public struct NotificationHookConfig: Sendable, Equatable {
    /// The endpoint.
    public var url: WebhookURL
    /// Milliseconds after a notification of a member about a room during which further
    /// messages of that room do not notify them again.
    public var quietPeriodMilliseconds: Int = 60_000

    /// Creates a hook.
    public init(url: WebhookURL, quietPeriodMilliseconds: Int = 60_000) {
        self.url = url
        self.quietPeriodMilliseconds = quietPeriodMilliseconds
    }
}
