import Testing

@testable import ParleyChannels

/// `chat_webhooks`, `before_send` and `notification_hook` of an app in the config file.
struct ChatHooksConfigTests {
    func app(_ json: String) throws -> AppConfig {
        try ChannelsConfig.parse(Array(#"{"apps": [{"id": "1", "key": "k", "secret": "s", \#(json)}]}"#.utf8)).apps[0]
    }

    @Test func hooksAreRead() throws {
        let hooks = try app(
            """
            "chat_webhooks": [{"url": "http://127.0.0.1:8080/events", "event_types": ["message.created", "user.flagged"]},
                              {"url": "http://127.0.0.1:8081/all"}],
            "before_send": {"url": "http://127.0.0.1:8080/check", "timeout_ms": 250, "on_failure": "reject"},
            "notification_hook": {"url": "http://127.0.0.1:8080/push", "quiet_period_ms": 5000}
            """
        ).chatHooks
        #expect(hooks.webhooks.map(\.url.port) == [8080, 8081])
        #expect(hooks.webhooks[0].accepts("message.created") && !hooks.webhooks[0].accepts("room.deleted"))
        #expect(hooks.webhooks[1].accepts("room.deleted"))
        #expect(
            hooks.beforeSend
                == BeforeSendConfig(url: WebhookURL("http://127.0.0.1:8080/check")!, timeoutMilliseconds: 250, onFailure: .reject))
        #expect(hooks.notifications?.quietPeriodMilliseconds == 5000)
        let defaults = try app(#""before_send": {"url": "http://h/b"}, "notification_hook": {"url": "http://h/n"}"#).chatHooks
        #expect(defaults.beforeSend?.timeoutMilliseconds == 2000 && defaults.beforeSend?.onFailure == .allow)
        #expect(defaults.notifications?.quietPeriodMilliseconds == 60_000)
        #expect(try app(#""enabled": true"#).chatHooks.isEmpty)
    }

    @Test func badHooksAreRefusedWithTheirPath() {
        #expect(
            throws: ChannelsConfigError(
                "$.apps[0].chat_webhooks[0].url", "must be http://host[:port]/path (https is not supported; put a proxy in front)")
        ) {
            try app(#""chat_webhooks": [{"url": "https://h/e"}]"#)
        }
        #expect(
            throws: ChannelsConfigError(
                "$.apps[0].chat_webhooks[0].event_types[0]",
                "unknown event type (known: \(ChatWebhookConfig.knownKinds.joined(separator: ", ")))")
        ) {
            try app(#""chat_webhooks": [{"url": "http://h/e", "event_types": ["message.sent"]}]"#)
        }
        #expect(throws: ChannelsConfigError("$.apps[0].before_send.on_failure", "must be allow or reject")) {
            try app(#""before_send": {"url": "http://h/b", "on_failure": "maybe"}"#)
        }
        #expect(throws: ChannelsConfigError("$.apps[0].before_send.timeout_ms", "must be an integer in 1...60000")) {
            try app(#""before_send": {"url": "http://h/b", "timeout_ms": 0}"#)
        }
    }
}
