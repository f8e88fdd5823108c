/// A Pusher protocol error / WebSocket close code (spec section 2).
///
/// The range tells the client what to do: 4000–4099 don't reconnect unchanged,
/// 4100–4199 reconnect after backoff, 4200–4299 reconnect at once, 4300–4399 other.
public struct PusherErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code as sent in `pusher:error` and the close frame.
    public let rawValue: Int
    /// Creates a code from its number.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }

    /// The app key is unknown.
    public static let unknownApp = PusherErrorCode(rawValue: 4001)
    /// The app is disabled.
    public static let appDisabled = PusherErrorCode(rawValue: 4003)
    /// The app is over its connection quota.
    public static let overConnectionQuota = PusherErrorCode(rawValue: 4004)
    /// The WebSocket path is not `/app/{key}`.
    public static let pathNotFound = PusherErrorCode(rawValue: 4005)
    /// The `protocol` query parameter names an unsupported version.
    public static let unsupportedProtocol = PusherErrorCode(rawValue: 4007)
    /// The `protocol` query parameter is missing.
    public static let noProtocol = PusherErrorCode(rawValue: 4008)
    /// Authentication failed (sign-in, terminated user).
    public static let unauthorized = PusherErrorCode(rawValue: 4009)
    /// The server is over capacity or the connection could not keep up; reconnect after backoff.
    public static let overCapacity = PusherErrorCode(rawValue: 4100)
    /// Generic closing / protocol misuse; reconnect at once.
    public static let generic = PusherErrorCode(rawValue: 4200)
    /// The client did not answer a ping in time.
    public static let pongNotReceived = PusherErrorCode(rawValue: 4201)
    /// The connection was closed for inactivity.
    public static let closedForInactivity = PusherErrorCode(rawValue: 4202)
    /// A client event was rejected or rate-limited.
    public static let clientEventRejected = PusherErrorCode(rawValue: 4301)
    /// The watchlist has more than the allowed number of user ids.
    public static let watchlistOverLimit = PusherErrorCode(rawValue: 4302)
    /// A subscription was refused: the connection holds as many channels as its app allows
    /// (Parley's own code; the connection stays open).
    public static let tooManySubscriptions = PusherErrorCode(rawValue: 4303)
}
