import ParleyChannels

/// The members of an app's chat hooks (docs/webhooks.md describes the deliveries).
extension ConfigSchema {
    /// The members of one `chat_webhooks` endpoint.
    static let chatWebhook: [ConfigKey] = [
        ConfigKey("url", .string, required: true, "`http://host[:port]/path` the signed chat events are POSTed to."),
        ConfigKey(
            "event_types", .strings, default: "all",
            "Which chat events to send: \(ChatWebhookConfig.knownKinds.map { "`\($0)`" }.joined(separator: ", "))."
        )
    ]

    /// The members of `before_send`.
    static let beforeSend: [ConfigKey] = [
        ConfigKey("url", .string, required: true, "`http://host[:port]/path` each message is POSTed to before it is stored."),
        ConfigKey("timeout_ms", .integer(1...60_000), default: "2000", "Milliseconds to wait for the endpoint's answer."),
        ConfigKey(
            "on_failure", .string, default: "allow",
            "`allow`: a timeout or failed answer stores the message as sent; `reject`: the sender gets 503 `hook_unavailable`.")
    ]

    /// The members of `notification_hook`.
    static let notificationHook: [ConfigKey] = [
        ConfigKey("url", .string, required: true, "`http://host[:port]/path` the `notification.needed` batches are POSTed to."),
        ConfigKey(
            "quiet_period_ms", .integer(0...86_400_000), default: "60000",
            "Milliseconds after notifying a member about a room during which that room's messages do not notify them again.")
    ]
}
