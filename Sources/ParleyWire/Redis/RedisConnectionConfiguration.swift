/// How a Redis connection behaves: where it goes, how long it waits, how it reconnects.
/// Times are in milliseconds.
public struct RedisConnectionConfiguration: Sendable, Equatable {
    /// The server, the login and the database.
    public var url: RedisURL
    /// Longest a connect plus `AUTH`/`SELECT` may take before the attempt counts as failed.
    public var connectTimeout: Int64
    /// Longest the oldest outstanding reply may take before the connection is deemed dead and
    /// replaced; nil waits for ever (never for a connection with blocking commands on it).
    public var replyTimeout: Int64?
    /// A PING is sent after this long without a byte from the server; nil sends none.
    public var pingInterval: Int64?
    /// The first reconnect waits between half of this and this; each failed attempt doubles it.
    public var reconnectInitialDelay: Int64
    /// The longest wait between attempts.
    public var reconnectMaxDelay: Int64
    /// Most commands held while a connection is being opened; more are refused.
    public var maxHeldCommands: Int
    /// What a reply may make the parser hold.
    public var parserLimits: RESPParser.Limits

    /// Creates a configuration.
    public init(
        url: RedisURL, connectTimeout: Int64 = 10_000, replyTimeout: Int64? = 10_000,
        pingInterval: Int64? = 15_000, reconnectInitialDelay: Int64 = 100, reconnectMaxDelay: Int64 = 5_000,
        maxHeldCommands: Int = 10_000, parserLimits: RESPParser.Limits = RESPParser.Limits()
    ) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.replyTimeout = replyTimeout
        self.pingInterval = pingInterval
        self.reconnectInitialDelay = reconnectInitialDelay
        self.reconnectMaxDelay = reconnectMaxDelay
        self.maxHeldCommands = maxHeldCommands
        self.parserLimits = parserLimits
    }
}
