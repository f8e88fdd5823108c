/// Where the server is and how the client behaves.
public struct ParleyConfiguration: Sendable {
    /// The server's base URL, `http://host:port`.
    public var serverURL: String
    /// The app's key (the realtime path `/app/{key}`).
    public var appKey: String
    /// The app's id, sent as `X-Parley-App` when set.
    public var appID: String?
    /// The realtime URL; derived from ``serverURL`` and ``appKey`` when nil.
    public var realtimeURL: String?
    /// The SQLite file of the outbox and cache; nil keeps them in memory (lost on exit).
    public var storePath: String?
    /// Reconnect timing.
    public var reconnect: ReconnectPolicy
    /// Typing notices go out at most this often per room.
    public var typingInterval: Duration
    /// A typing user is shown this long after their last notice.
    public var typingTimeout: Duration
    /// Read cursors are sent this long after the last change.
    public var cursorDebounce: Duration
    /// History page size for gap-filling.
    public var historyPageSize: Int
    /// Ping the server after this much silence; close if it stays silent as long again.
    public var activityTimeout: Duration
    /// Told about every failure the client handles on its own (a skipped event, a failed
    /// background request, a store error, an unreadable document message); called on the
    /// client's (or the document session's) executor, keep it quick.
    public var diagnostics: (@Sendable (ParleyDiagnostic) -> Void)?

    /// Creates a configuration.
    public init(
        serverURL: String, appKey: String, appID: String? = nil, realtimeURL: String? = nil, storePath: String? = nil,
        reconnect: ReconnectPolicy = ReconnectPolicy(), typingInterval: Duration = .seconds(1),
        typingTimeout: Duration = .seconds(3), cursorDebounce: Duration = .milliseconds(500),
        historyPageSize: Int = 100, activityTimeout: Duration = .seconds(120),
        diagnostics: (@Sendable (ParleyDiagnostic) -> Void)? = nil
    ) {
        self.serverURL = serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL
        self.appKey = appKey
        self.appID = appID
        self.realtimeURL = realtimeURL
        self.storePath = storePath
        self.reconnect = reconnect
        self.typingInterval = typingInterval
        self.typingTimeout = typingTimeout
        self.cursorDebounce = cursorDebounce
        self.historyPageSize = historyPageSize
        self.activityTimeout = activityTimeout
        self.diagnostics = diagnostics
    }

    /// The realtime URL in use.
    public var resolvedRealtimeURL: String {
        if let realtimeURL { return realtimeURL }
        let base =
            serverURL.hasPrefix("https://")
            ? "wss://" + serverURL.dropFirst(8)
            : serverURL.hasPrefix("http://") ? "ws://" + serverURL.dropFirst(7) : serverURL
        return base + "/app/" + appKey + "?protocol=7&client=parleykit&version=1.0"
    }
}
