/// One signed webhook request ready to POST.
public struct WebhookDelivery: Sendable, Equatable {
    /// Identifies the delivery when its result is reported.
    public var id: Int
    /// Where to POST.
    public var url: WebhookURL
    /// The app key (`X-Pusher-Key`).
    public var key: String
    /// The JSON body `{"time_ms", "events"}`.
    public var body: [UInt8]
    /// Hex HMAC-SHA256 of the body (`X-Pusher-Signature`).
    public var signature: String
    /// 1 for the first attempt.
    public var attempt: Int
    /// The id of the app whose events these are (for its counters).
    public var appID: String = ""
}
