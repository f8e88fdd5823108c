/// Per-app limits (spec sections 3, 6 and 7); every field has the spec's default.
public struct AppLimits: Sendable, Equatable {
    /// Most simultaneous connections (nil: unlimited). Over it → 4004.
    public var maxConnections: Int?
    /// Most distinct members of a presence channel.
    public var maxPresenceMembers: Int = 100
    /// Largest serialised `user_info`, in bytes.
    public var maxUserInfoBytes: Int = 1024
    /// Longest presence / sign-in user id, in characters.
    public var maxUserIDLength: Int = 128
    /// Largest event `data`, in bytes (HTTP API: 413 above it; client events: 4301).
    public var maxEventBytes: Int = 10 * 1024
    /// Most channels one HTTP API trigger may name.
    public var maxChannelsPerEvent: Int = 100
    /// Most events in one `batch_events` request.
    public var maxBatchEvents: Int = 10
    /// Client events each connection may send per second.
    public var clientEventsPerSecond: Int = 10
    /// Most user ids in a sign-in watchlist.
    public var maxWatchlist: Int = 100

    /// The spec's defaults.
    public init() {}
}
