import ParleyWire

/// Everything the channels service is configured with: the apps and server-wide settings.
///
/// The JSON form (`parley serve --config FILE`, or its `"channels"` member):
/// ```
/// {"activity_timeout": 120, "max_outbound_bytes": 1048576, "webhook_batch_ms": 50, "metrics_token": "…",
///  "apps": [{"id": "1", "key": "k", "secret": "s", "enabled": true,
///            "client_events": true, "user_authentication": true, "subscription_count": false,
///            "webhooks": [{"url": "http://127.0.0.1:9000/hook", "event_types": ["channel_occupied"],
///                          "filter": {"channel_name_starts_with": "presence-"}}],
///            "limits": {"max_connections": 1000, "max_presence_members": 100,
///                       "max_event_bytes": 10240, "client_events_per_second": 10, ...}}]}
/// ```
public struct ChannelsConfig: Sendable, Equatable {
    /// The hosted apps.
    public var apps: [AppConfig]
    /// Seconds of client silence before the server pings (sent in connection_established).
    public var activityTimeout: Int = 120
    /// Seconds to wait for a pong before closing with 4201.
    public var pongTimeout: Int = 30
    /// Most bytes queued towards one connection before it is closed with 4100.
    public var maxOutboundBytes: Int = 1 << 20
    /// How long webhook events are gathered into one request, in milliseconds.
    public var webhookBatchMilliseconds: Int = 50
    /// How long `channel_vacated`/`member_removed` wait for a quick return, in milliseconds.
    public var webhookLeaveDelayMilliseconds: Int = 3000
    /// How long a failing webhook batch is retried, in milliseconds.
    public var webhookRetryWindowMilliseconds: Int = 5 * 60 * 1000
    /// The bearer token `GET /metrics` requires (`metrics_token`); nil: see the server's rule.
    public var metricsToken: String? = nil

    /// Creates a configuration with the given apps and default settings.
    public init(apps: [AppConfig]) { self.apps = apps }

    /// The `--dev` configuration: one development app.
    public static var development: ChannelsConfig { ChannelsConfig(apps: [.development]) }
}
