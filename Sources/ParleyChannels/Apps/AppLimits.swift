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
    /// Most channels one connection may hold at once; one more is refused with
    /// `pusher:subscription_error` (status 429) and `pusher:error` 4303.
    public var maxChannelsPerConnection: Int = 100
    /// Per-user rates of chat and document writes (429 with `Retry-After` above them).
    public var rates = UserWriteRates()
    /// Most distinct reactions (emoji) one message may carry.
    public var maxReactionsPerMessage: Int = 50
    /// Most attachment bytes the app may store in total (507 `storage_quota_exceeded` above it);
    /// nil: no quota.
    public var attachmentQuotaBytes: Int? = 10 << 30
    /// Largest attachment upload, in bytes (413 `payload_too_large` above it); nil: the chat
    /// service's default (`ChatLimits.attachmentBytes`).
    public var maxAttachmentBytes: Int?
    /// Media types uploads may be stored as (`type/subtype`, `type/*` or `*/*`, matched against
    /// the type the server decided from the bytes); an upload of another gets 415
    /// `attachment_type_not_allowed`. nil: every type.
    public var attachmentTypes: [String]?
    /// What `POST /v1/users/{id}/erase` does when the request names no mode: `delete` or `anonymise`.
    public var eraseMode = "delete"
    /// Unhandled y-websocket messages (bytes) of one connection above which the server stops
    /// reading its socket until half is handled; eight times this closes it with 1008.
    public var documentBacklogBytes: Int = 4 << 20
    /// The same bound in messages.
    public var documentBacklogMessages: Int = 64

    /// The spec's defaults.
    public init() {}
}
