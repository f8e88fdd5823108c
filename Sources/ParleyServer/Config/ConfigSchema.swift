import ParleyChannels

/// Every setting of the JSON config file (`parley serve --config FILE`), in one table.
///
/// The readers of each section (``ChannelsConfig``, ``EdgeOptions``, the `"tls"` member)
/// decode values; this table says which members exist, so a misspelt one is an error that
/// names the nearest known one, and it is what `docs/configuration.md` is generated from.
enum ConfigSchema {
    /// The members of the file's top-level object.
    static let root: [ConfigKey] = [
        ConfigKey("apps", .objects(app), required: true, "The apps this server hosts; at least one."),
        ConfigKey(
            "activity_timeout", .integer(1...3600), default: "120",
            "Seconds of client silence before the server pings a WebSocket (sent to clients in `pusher:connection_established`). Proxies in front must allow longer idle times."
        ),
        ConfigKey("pong_timeout", .integer(1...600), default: "30", "Seconds to wait for a pong before closing the connection with 4201."),
        ConfigKey(
            "max_outbound_bytes", .integer(1024...(1 << 30)), default: "1048576",
            "Most bytes queued towards one WebSocket before it is closed with 4100 (a slow consumer). `--max-outbound` wins."),
        ConfigKey("webhook_batch_ms", .integer(0...60_000), default: "50", "Milliseconds webhook events are gathered into one request."),
        ConfigKey(
            "webhook_leave_delay_ms", .integer(0...60_000), default: "3000",
            "Milliseconds `channel_vacated` and `member_removed` wait for a quick return before they are sent."
                + " In a cluster the pair is dropped when the return is on the node that saw the leave"
                + " (see the README, \"Several nodes (Redis)\")."),
        ConfigKey("webhook_retry_ms", .integer(0...86_400_000), default: "300000", "Milliseconds a failing webhook batch is retried."),
        ConfigKey(
            "metrics_token", .string,
            "Bearer token `GET /metrics` requires. `--metrics-token` wins; without either, only a `--dev` server on loopback serves metrics."
        ),
        ConfigKey(
            "redis", .string,
            "The Redis bus joining this node to others (`redis://[user:password@]host:port[/db]`); needs a PostgreSQL database. `--redis`/`PARLEY_REDIS` win. A URL with a password is better kept in `redis_env`."
        ),
        ConfigKey(
            "redis_env", .string,
            "Instead of `redis`: the name of an environment variable of the server holding the URL; refused when unset or empty."),
        ConfigKey("http", .object(http), "Connection caps and request deadlines. Each has a `parley serve` flag, which wins."),
        ConfigKey("tls", .object(tls), "Serve HTTPS/WSS. `--tls-cert`/`--tls-key` win; SIGHUP reloads the files."),
        ConfigKey(
            "thumbnails", .object(thumbnails),
            "JPEG thumbnails of PNG, JPEG, GIF and WebP attachments (docs/files-and-data-rights.md); read at start and on SIGHUP (later uploads)."
        )
    ]

    /// The members of `thumbnails`.
    static let thumbnails: [ConfigKey] = {
        let defaults = ThumbnailOptions()
        return [
            ConfigKey(
                "enabled", .boolean, default: "\(defaults.enabled)",
                "Whether image uploads get a thumbnail; `false`: none is made (those made before stay, and are served)."),
            ConfigKey(
                "max_side", .integer(ThumbnailOptions.maxSideRange), default: "\(defaults.maxSide)",
                "The thumbnail's longest side, in pixels (the aspect ratio is kept; smaller images are not enlarged)."),
            ConfigKey(
                "max_source_pixels", .integer(ThumbnailOptions.maxSourcePixelsRange), default: "\(defaults.maxSourcePixels)",
                "Images whose header declares more pixels (width × height) than this get no thumbnail: nothing is decoded, so a decompression bomb costs nothing. Decoding takes up to 4 bytes a pixel."
            ),
            ConfigKey(
                "jpeg_quality", .integer(ThumbnailOptions.jpegQualityRange), default: "\(defaults.jpegQuality)",
                "The JPEG quality thumbnails are written with (libjpeg-turbo's 1…100 scale).")
        ]
    }()

    /// The members of one app.
    static let app: [ConfigKey] = [
        ConfigKey("id", .string, required: true, "The app id: digits (the Pusher server libraries require a numeric id)."),
        ConfigKey("key", .string, required: true, "The public key clients connect with (`/app/KEY`): letters, digits and `_-=@,.;`."),
        ConfigKey(
            "secret", .string, default: "first of `secrets`",
            "The app secret: signs what the server signs (webhooks, channel and user authorisations it issues, user tokens and download URLs it mints) and verifies HTTP API requests, authorisations and user tokens. One of `secret`, `secret_file`, `secret_env` or `secrets` is required."
        ),
        ConfigKey(
            "secret_file", .string,
            "Instead of `secret`: a file holding it (trailing line ends dropped; at most 64 KiB), read at start and on every SIGHUP. Refused when missing, empty or writable by every user; a warning when every user may read it (group-readable, e.g. `root:parley 0640`, is fine)."
        ),
        ConfigKey(
            "secret_env", .string,
            "Instead of `secret`: the name of an environment variable of the server holding it; refused when unset or empty."),
        ConfigKey(
            "secrets", .stringsOrObjects(secretSource), default: "[]",
            "More secrets the app accepts, after `secret` (the server signs with `secret`, or with the first of these when `secret` is absent); each a string or `{\"file\": PATH}` / `{\"env\": NAME}` read like `secret_file` / `secret_env`. To rotate without a restart: add the new secret here and send SIGHUP, move clients and back ends over, make it `secret` (old one here), SIGHUP; later drop the old one, SIGHUP."
        ),
        ConfigKey("enabled", .boolean, default: "true", "A disabled app refuses connections (4003) and API calls."),
        ConfigKey(
            "client_events", .boolean, default: "false", "Whether members of private and presence channels may send `client-` events."),
        ConfigKey("user_authentication", .boolean, default: "false", "Whether connections may sign in (`pusher:signin`)."),
        ConfigKey("subscription_count", .boolean, default: "false", "Whether channels get `pusher_internal:subscription_count` events."),
        ConfigKey("webhooks", .objects(webhook), default: "[]", "Endpoints told about channel and presence events."),
        ConfigKey("chat_webhooks", .objects(chatWebhook), default: "[]", "Endpoints told about chat events (docs/webhooks.md)."),
        ConfigKey("before_send", .object(beforeSend), "The endpoint that sees each message before it is stored (docs/webhooks.md)."),
        ConfigKey(
            "notification_hook", .object(notificationHook),
            "The endpoint told which away members need a push notification (docs/webhooks.md)."),
        ConfigKey("limits", .object(limits), "Per-app limits; absent members keep their defaults."),
        ConfigKey(
            "cors_origins", .strings, default: "[]",
            "Web origins (`scheme://host[:port]`) whose pages may call the chat API from a browser."),
        ConfigKey("moderation", .object(moderation), "Chat content rules (docs/moderation.md).")
    ]

    /// The members of an app's `moderation`.
    static let moderation: [ConfigKey] = [
        ConfigKey(
            "blocked_words", .strings, default: "[]",
            "Words chat messages may not contain, matched as whole words ignoring case, at send and edit."),
        ConfigKey(
            "mode", .string, default: "reject",
            "`reject`: refuse the message (`blocked_word`, 422); `mask`: replace each blocked word by `*`s.")
    ]

    /// The members of a `secrets` entry kept outside the file (exactly one of them).
    static let secretSource: [ConfigKey] = [
        ConfigKey("file", .string, "A file holding the secret, read like `secret_file`."),
        ConfigKey("env", .string, "An environment variable holding the secret, read like `secret_env`.")
    ]

    /// The members of one webhook endpoint.
    static let webhook: [ConfigKey] = [
        ConfigKey("url", .string, required: true, "`http://host[:port]/path` the events are POSTed to (put a proxy in front for https)."),
        ConfigKey(
            "event_types", .strings, default: "all",
            "Which events to send: `channel_occupied`, `channel_vacated`, `member_added`, `member_removed`, `client_event`, `cache_miss`, `subscription_count`."
        ),
        ConfigKey("filter", .object(webhookFilter), "Send only events of channels whose names match.")
    ]

    /// The members of a webhook's `filter`.
    static let webhookFilter: [ConfigKey] = [
        ConfigKey("channel_name_starts_with", .string, "Only channels whose name starts with this."),
        ConfigKey("channel_name_ends_with", .string, "Only channels whose name ends with this.")
    ]

    /// The members of an app's `limits`.
    static let limits: [ConfigKey] = [
        ConfigKey(
            "max_connections", .integer(0...Int(Int32.max)), default: "unlimited",
            "Most simultaneous WebSockets of the app; more are closed with 4004."),
        ConfigKey("max_presence_members", .integer(1...100_000), default: "100", "Most distinct members of one presence channel."),
        ConfigKey("max_user_info_bytes", .integer(1...(1 << 20)), default: "1024", "Largest serialised `user_info`, in bytes."),
        ConfigKey("max_user_id_length", .integer(1...4096), default: "128", "Longest presence or sign-in user id, in characters."),
        ConfigKey(
            "max_event_bytes", .integer(1...(16 << 20)), default: "10240",
            "Largest event `data`, in bytes (HTTP API: 413 above it; client events: 4301)."),
        ConfigKey("max_channels_per_event", .integer(1...10_000), default: "100", "Most channels one HTTP API trigger may name."),
        ConfigKey("max_batch_events", .integer(1...10_000), default: "10", "Most events in one `batch_events` request."),
        ConfigKey("client_events_per_second", .integer(1...1_000_000), default: "10", "Client events each connection may send per second."),
        ConfigKey("max_watchlist", .integer(0...10_000), default: "100", "Most user ids in a sign-in watchlist."),
        ConfigKey(
            "max_channels_per_connection", .integer(1...100_000), default: "100",
            "Most channels one WebSocket may be subscribed to; a subscribe beyond it gets `pusher:subscription_error` 4303."),
        ConfigKey(
            "max_reactions_per_message", .integer(1...10_000), default: "50",
            "Most different emoji on one message; a new one beyond it gets 422 `too_many_reactions`."),
        ConfigKey(
            "attachment_quota_bytes", .integer(0...Int.max), default: "10737418240",
            "Most bytes of attachments the app stores; an upload past it gets 507 `storage_quota_exceeded`. 0: no quota."),
        ConfigKey(
            "max_attachment_bytes", .integer(1...AppLimits.largestAttachment), default: "10485760",
            "Largest attachment upload, in bytes (uploads are held in memory while checked); a bigger one gets 413 `payload_too_large`."),
        ConfigKey(
            "attachment_types", .strings, default: "all types",
            "Media types uploads may be, as the server decides them from the bytes: `type/subtype`, `type/*` or `*/*`; another gets 415 `attachment_type_not_allowed`."
        ),
        ConfigKey(
            "erase_mode", .string, default: "delete",
            "What `POST /v1/users/{id}/erase` does when the request names no mode: `delete` (messages become tombstones, uploads removed) or `anonymise` (messages and uploads kept under the author `~erased`)."
        ),
        ConfigKey(
            "document_backlog_bytes", .integer(65_536...(1 << 30)), default: "4194304",
            "Most bytes of document updates waiting for one editing socket before it is paused (back-pressure on its reads)."),
        ConfigKey(
            "document_backlog_messages", .integer(1...100_000), default: "64",
            "Most document messages waiting for one editing socket before it is paused."),
        ConfigKey("rates", .object(rates), "Per-user rates of chat and document writes; above one a write gets 429 with `Retry-After`.")
    ]

    /// The members of `limits.rates`: one per kind of write.
    static let rates: [ConfigKey] = UserWrite.allCases.map { write in
        let limit = write.defaultLimit
        return ConfigKey(
            write.rawValue, .object(rate), default: "\(plain(limit.perSecond))/s, burst \(plain(limit.burst))",
            rateHelp(write))
    }

    /// The members of one rate in `limits.rates`.
    static let rate: [ConfigKey] = [
        ConfigKey(
            "per_second", .number(0...1_000_000), default: "the kind's",
            "Writes per second each user may sustain; 0 turns this kind's limit off."),
        ConfigKey(
            "burst", .number(1...1_000_000), default: "twice per_second",
            "Writes a user may make at once after a quiet spell.")
    ]

    /// The members of `http` (the same settings as the `parley serve` flags of the same names).
    static let http: [ConfigKey] = [
        ConfigKey(
            "max_connections", .integer(1...10_000_000), default: "open-file limit less a tenth",
            "Most open connections (HTTP and WebSocket); more get 503 with `Retry-After`."),
        ConfigKey(
            "max_connections_per_ip", .integer(0...10_000_000), default: "256",
            "Most open connections per client address (IPv6: per /64); 0: no cap."),
        ConfigKey("limit_loopback", .boolean, default: "false", "Apply `max_connections_per_ip` to loopback clients too."),
        ConfigKey("head_timeout", .integer(1...3600), default: "10", "Seconds a request head may take from its first byte; 408 after."),
        ConfigKey(
            "body_timeout", .integer(0...86_400), default: "300", "Seconds a request body may take after its head; 408 after; 0: no bound."),
        ConfigKey(
            "min_body_rate", .integer(0...(1 << 30)), default: "1024",
            "Least body bytes per second after a grace period as long as `head_timeout`; 408 below; 0: none."),
        ConfigKey(
            "trusted_proxies", .strings, default: "[]",
            "Addresses or CIDR ranges (`10.0.0.0/8`, `::1`) of proxies whose `X-Forwarded-For` is believed: a request from one is counted, capped and logged as the right-most address of that header not itself in these ranges. From other peers the header is ignored. `--trusted-proxy` (repeatable) and `PARLEY_TRUSTED_PROXIES` win."
        )
    ]

    /// The members of `tls`.
    static let tls: [ConfigKey] = [
        ConfigKey("cert_file", .string, required: true, "PEM certificate chain file."),
        ConfigKey("key_file", .string, required: true, "PEM private key of the certificate.")
    ]

    /// What a kind of write in `limits.rates` covers.
    private static func rateHelp(_ write: UserWrite) -> String {
        switch write {
        case .messages: "Messages sent (`POST /v1/rooms/{id}/messages`)."
        case .reactions: "Reactions added or removed."
        case .edits: "Message edits."
        case .deletes: "Message deletions."
        case .typing: "Typing notices."
        case .rooms: "Rooms created (group or direct), changed or deleted."
        case .memberships: "Joins, leaves, and members added, changed or removed."
        case .uploads: "Attachment uploads."
        case .cursors: "Read-cursor moves."
        case .documents: "Documents created."
        }
    }

    /// A number as a person writes it: `20`, `0.5`.
    static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
