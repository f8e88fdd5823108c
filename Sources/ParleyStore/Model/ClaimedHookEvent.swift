/// An outbox row a node claimed for delivery.
public struct ClaimedHookEvent: Sendable, Equatable {
    /// The row's id.
    public var id: Int64
    /// The app whose endpoint receives it.
    public var appID: String
    /// The endpoint's address.
    public var url: String
    /// The event's JSON object.
    public var event: String
    /// Failed attempts so far.
    public var attempts: Int
    /// When it was first attempted (ms since the epoch), nil before the first attempt.
    public var firstAttemptAt: Int64?

    /// Creates a claimed row.
    public init(id: Int64, appID: String, url: String, event: String, attempts: Int, firstAttemptAt: Int64?) {
        self.id = id
        self.appID = appID
        self.url = url
        self.event = event
        self.attempts = attempts
        self.firstAttemptAt = firstAttemptAt
    }
}
