/// The chat service's own limits and lifetimes (the store checks text, parts and custom data).
public struct ChatLimits: Sendable, Hashable {
    /// The largest attachment upload, in bytes (413 above it).
    public var attachmentBytes = 10 * 1024 * 1024
    /// The widest and tallest image accepted, in pixels per side (422 `image_too_large` above).
    public var maxImageSide = 16_384
    /// The most pixels (width × height) an uploaded image may have (422 `image_too_large` above).
    public var maxImagePixels = 100_000_000
    /// Whether PNG, JPEG, GIF and WebP uploads get a thumbnail.
    public var thumbnails = true
    /// The longest side of an image attachment's thumbnail, in pixels.
    public var thumbnailSide = 320
    /// Images of more pixels than this get no thumbnail (their header is read, nothing decoded).
    public var thumbnailMaxPixels = 40_000_000
    /// The JPEG quality thumbnails are written with (1…100).
    public var thumbnailQuality = 80
    /// How many thumbnails are made at once; uploads beyond that wait for their turn.
    public var thumbnailConcurrency = 2
    /// The largest JSON request body, in bytes (413 above it).
    public var jsonBodyBytes = 64 * 1024
    /// How far a token's `exp`, `iat` and `nbf` may be off the server clock, in seconds.
    public var tokenLeewaySeconds: Int64 = 30
    /// How long a signed download URL stays valid, in seconds.
    public var downloadURLSeconds: Int64 = 300
    /// How long tokens minted by `POST /v1/dev/token` last, in seconds.
    public var devTokenSeconds: Int64 = 24 * 3600
    /// Sustained messages per second one user may send, in every app (0 turns the limit off);
    /// nil leaves it to each app's `limits.rates.messages`.
    public var sendsPerSecond: Double? = nil
    /// How many messages a user may send at once with `sendsPerSecond` (nil: twice the rate).
    public var sendBurst: Double? = nil
    /// Whether the per-user write rates apply at all (tests whose clock hardly moves turn them off).
    public var userRateLimits = true
    /// The history page size when the request names none.
    public var defaultHistoryPage = 50
    /// The largest history or list page a request may ask for.
    public var maxPage = 100
    /// Rooms with more members than this get no per-member `room.activity` events (0: never).
    public var activityFanoutMembers = 200
    /// How many rooms' member lists the service keeps in memory (0: none, read them every time).
    public var cachedRooms = 10_000
    /// How many of a user's rooms hear about their presence changes.
    public var presenceRooms = 1_000

    /// The default limits.
    public init() {}
}
