import ParleyWire

extension ChatHooksConfig {
    /// Reads an app's `chat_webhooks`, `before_send` and `notification_hook` members.
    init(_ reader: ConfigReader, path: String) throws(ChannelsConfigError) {
        self.init()
        if let hooks = reader.value("chat_webhooks") {
            guard let list = hooks.arrayValue else { throw ChannelsConfigError("\(path).chat_webhooks", "must be an array") }
            webhooks = try list.enumerated().map { (i, hook) throws(ChannelsConfigError) in
                try ChatWebhookConfig(json: hook, path: "\(path).chat_webhooks[\(i)]")
            }
        }
        if let json = reader.value("before_send") {
            let r = try ConfigReader(json, path: "\(path).before_send")
            var hook = BeforeSendConfig(url: try Self.url(r, path: "\(path).before_send"))
            hook.timeoutMilliseconds = try r.int("timeout_ms", default: hook.timeoutMilliseconds, range: 1...60_000)
            if let text = try r.optionalString("on_failure") {
                guard let policy = BeforeSendConfig.FailurePolicy(rawValue: text) else {
                    throw ChannelsConfigError("\(path).before_send.on_failure", "must be allow or reject")
                }
                hook.onFailure = policy
            }
            beforeSend = hook
        }
        if let json = reader.value("notification_hook") {
            let r = try ConfigReader(json, path: "\(path).notification_hook")
            var hook = NotificationHookConfig(url: try Self.url(r, path: "\(path).notification_hook"))
            hook.quietPeriodMilliseconds = try r.int(
                "quiet_period_ms", default: hook.quietPeriodMilliseconds, range: 0...86_400_000)
            notifications = hook
        }
    }

    static func url(_ reader: ConfigReader, path: String) throws(ChannelsConfigError) -> WebhookURL {
        let text = try reader.requiredString("url")
        guard let url = WebhookURL(text) else {
            throw ChannelsConfigError("\(path).url", "must be http://host[:port]/path (https is not supported; put a proxy in front)")
        }
        return url
    }
}

extension ChatWebhookConfig {
    /// Decodes one chat webhook endpoint.
    init(json: JSONValue, path: String) throws(ChannelsConfigError) {
        let reader = try ConfigReader(json, path: path)
        self.init(url: try ChatHooksConfig.url(reader, path: path))
        if let types = reader.value("event_types") {
            guard let list = types.arrayValue else { throw ChannelsConfigError("\(path).event_types", "must be an array of strings") }
            var kinds = Set<String>()
            for (i, item) in list.enumerated() {
                guard let name = item.stringValue, Self.knownKinds.contains(name) else {
                    let known = Self.knownKinds.joined(separator: ", ")
                    throw ChannelsConfigError("\(path).event_types[\(i)]", "unknown event type (known: \(known))")
                }
                kinds.insert(name)
            }
            eventKinds = kinds
        }
    }
}
