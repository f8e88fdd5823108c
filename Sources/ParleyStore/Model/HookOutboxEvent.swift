/// One chat hook event for one endpoint, as written to the outbox (migration 12).
public struct HookOutboxEvent: Sendable, Equatable {
    /// The app whose endpoint receives it.
    public var appID: String
    /// The endpoint's address.
    public var url: String
    /// The event's JSON object, exactly as the endpoint receives it (with its stable `id`).
    public var event: String

    /// Creates an outbox event.
    public init(appID: String, url: String, event: String) {
        self.appID = appID
        self.url = url
        self.event = event
    }
}
