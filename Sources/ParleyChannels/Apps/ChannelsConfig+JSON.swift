import ParleyWire

extension ChannelsConfig {
    /// Parses and validates a configuration file's bytes.
    public static func parse(_ bytes: [UInt8]) throws(ChannelsConfigError) -> ChannelsConfig {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw ChannelsConfigError("$", error.description) }
        return try ChannelsConfig(json: value)
    }

    /// Decodes and validates a configuration from JSON (a top-level object with `apps`).
    public init(json: JSONValue) throws(ChannelsConfigError) {
        let reader = try ConfigReader(json, path: "$")
        guard let appList = reader.value("apps")?.arrayValue else { throw ChannelsConfigError("$.apps", "must be an array of apps") }
        var apps: [AppConfig] = []
        for (i, appJSON) in appList.enumerated() {
            apps.append(try AppConfig(json: appJSON, path: "$.apps[\(i)]"))
        }
        self.init(apps: apps)
        activityTimeout = try reader.int("activity_timeout", default: activityTimeout, range: 1...3600)
        pongTimeout = try reader.int("pong_timeout", default: pongTimeout, range: 1...600)
        maxOutboundBytes = try reader.int("max_outbound_bytes", default: maxOutboundBytes, range: 1024...(1 << 30))
        webhookBatchMilliseconds = try reader.int("webhook_batch_ms", default: webhookBatchMilliseconds, range: 0...60_000)
        webhookLeaveDelayMilliseconds = try reader.int("webhook_leave_delay_ms", default: webhookLeaveDelayMilliseconds, range: 0...60_000)
        webhookRetryWindowMilliseconds = try reader.int("webhook_retry_ms", default: webhookRetryWindowMilliseconds, range: 0...86_400_000)
        metricsToken = try reader.optionalString("metrics_token")
        if metricsToken?.isEmpty == true { throw ChannelsConfigError("$.metrics_token", "must not be empty") }
        try validate()
    }

    /// Checks what no single app can: non-empty, unique ids and keys.
    public func validate() throws(ChannelsConfigError) {
        guard !apps.isEmpty else { throw ChannelsConfigError("$.apps", "at least one app is required") }
        var ids = Set<String>(), keys = Set<String>()
        for (i, app) in apps.enumerated() {
            guard ids.insert(app.id).inserted else { throw ChannelsConfigError("$.apps[\(i)].id", "duplicate app id \(app.id)") }
            guard keys.insert(app.key).inserted else { throw ChannelsConfigError("$.apps[\(i)].key", "duplicate app key \(app.key)") }
        }
    }
}

extension AppConfig {
    /// Decodes and validates one app.
    public init(json: JSONValue, path: String) throws(ChannelsConfigError) {
        let reader = try ConfigReader(json, path: path)
        let id = try reader.requiredString("id")
        guard id.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else {
            throw ChannelsConfigError("\(path).id", "must be digits (the Pusher server libraries require a numeric app id)")
        }
        let key = try reader.requiredString("key")
        guard key.utf8.allSatisfy(PusherChannel.isNameByte) else {
            throw ChannelsConfigError("\(path).key", "may only contain letters, digits and _-=@,.;")
        }
        let secrets = try Self.secrets(reader, path: path)
        self.init(id: id, key: key, secret: secrets[0])
        self.secrets = secrets
        enabled = try reader.bool("enabled", default: true)
        clientEvents = try reader.bool("client_events", default: false)
        userAuthentication = try reader.bool("user_authentication", default: false)
        subscriptionCount = try reader.bool("subscription_count", default: false)
        if let hooks = reader.value("webhooks") {
            guard let list = hooks.arrayValue else { throw ChannelsConfigError("\(path).webhooks", "must be an array") }
            webhooks = try list.enumerated().map { (i, hook) throws(ChannelsConfigError) in
                try WebhookConfig(json: hook, path: "\(path).webhooks[\(i)]")
            }
        }
        if let limitsJSON = reader.value("limits") {
            limits = try AppLimits(json: limitsJSON, path: "\(path).limits")
        }
        if let origins = reader.value("cors_origins") {
            corsOrigins = try Self.origins(origins, path: "\(path).cors_origins")
        }
        chatHooks = try ChatHooksConfig(reader, path: path)
        if let moderationJSON = reader.value("moderation") {
            moderation = try AppModeration(json: moderationJSON, path: "\(path).moderation")
        }
    }

    /// `secret` then `secrets` (more accepted secrets, for a rotation), duplicates dropped;
    /// at least one is required, and none may be empty.
    private static func secrets(_ reader: ConfigReader, path: String) throws(ChannelsConfigError) -> [String] {
        var secrets: [String] = []
        if reader.value("secret") != nil { secrets.append(try reader.requiredString("secret")) }
        if let list = reader.value("secrets") {
            guard let items = list.arrayValue else { throw ChannelsConfigError("\(path).secrets", "must be an array of secrets") }
            for (i, item) in items.enumerated() {
                guard let text = item.stringValue, !text.isEmpty else {
                    throw ChannelsConfigError("\(path).secrets[\(i)]", "must be a non-empty string")
                }
                if !secrets.contains(text) { secrets.append(text) }
            }
        }
        guard !secrets.isEmpty else { throw ChannelsConfigError("\(path).secret", "is required (or a non-empty secrets array)") }
        return secrets
    }

    /// `cors_origins`: an array of `http(s)://host[:port]` strings, normalised.
    private static func origins(_ value: JSONValue, path: String) throws(ChannelsConfigError) -> [String] {
        guard let list = value.arrayValue else { throw ChannelsConfigError(path, "must be an array of origins") }
        var origins: [String] = []
        for (i, item) in list.enumerated() {
            guard let text = item.stringValue, let origin = CORSPolicy.normalize(text) else {
                throw ChannelsConfigError("\(path)[\(i)]", "must be an origin: http(s)://host[:port], no path")
            }
            origins.append(origin)
        }
        return origins
    }
}

extension WebhookConfig {
    /// Decodes and validates one webhook endpoint.
    public init(json: JSONValue, path: String) throws(ChannelsConfigError) {
        let reader = try ConfigReader(json, path: path)
        let text = try reader.requiredString("url")
        guard let url = WebhookURL(text) else {
            throw ChannelsConfigError("\(path).url", "must be http://host[:port]/path (https is not supported; put a proxy in front)")
        }
        self.init(url: url)
        if let types = reader.value("event_types") {
            guard let list = types.arrayValue else { throw ChannelsConfigError("\(path).event_types", "must be an array of strings") }
            var kinds = Set<WebhookEventKind>()
            for (i, item) in list.enumerated() {
                guard let name = item.stringValue, let kind = WebhookEventKind(rawValue: name) else {
                    let known = WebhookEventKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ChannelsConfigError("\(path).event_types[\(i)]", "unknown event type (known: \(known))")
                }
                kinds.insert(kind)
            }
            eventKinds = kinds
        }
        if let filter = reader.value("filter") {
            let f = try ConfigReader(filter, path: "\(path).filter")
            channelPrefix = try f.optionalString("channel_name_starts_with")
            channelSuffix = try f.optionalString("channel_name_ends_with")
        }
    }
}

extension AppLimits {
    /// Decodes and validates limits; absent members keep their defaults.
    public init(json: JSONValue, path: String) throws(ChannelsConfigError) {
        self.init()
        let r = try ConfigReader(json, path: path)
        if r.value("max_connections") != nil {
            maxConnections = try r.int("max_connections", default: 0, range: 0...Int(Int32.max))
        }
        maxPresenceMembers = try r.int("max_presence_members", default: maxPresenceMembers, range: 1...100_000)
        maxUserInfoBytes = try r.int("max_user_info_bytes", default: maxUserInfoBytes, range: 1...1 << 20)
        maxUserIDLength = try r.int("max_user_id_length", default: maxUserIDLength, range: 1...4096)
        maxEventBytes = try r.int("max_event_bytes", default: maxEventBytes, range: 1...(16 << 20))
        maxChannelsPerEvent = try r.int("max_channels_per_event", default: maxChannelsPerEvent, range: 1...10_000)
        maxBatchEvents = try r.int("max_batch_events", default: maxBatchEvents, range: 1...10_000)
        clientEventsPerSecond = try r.int("client_events_per_second", default: clientEventsPerSecond, range: 1...1_000_000)
        maxWatchlist = try r.int("max_watchlist", default: maxWatchlist, range: 0...10_000)
        maxChannelsPerConnection = try r.int("max_channels_per_connection", default: maxChannelsPerConnection, range: 1...100_000)
        maxReactionsPerMessage = try r.int("max_reactions_per_message", default: maxReactionsPerMessage, range: 1...10_000)
        if r.value("attachment_quota_bytes") != nil {
            let quota = try r.int("attachment_quota_bytes", default: 0, range: 0...Int.max)
            attachmentQuotaBytes = quota == 0 ? nil : quota
        }
        if r.value("max_attachment_bytes") != nil {
            maxAttachmentBytes = try r.int("max_attachment_bytes", default: 0, range: 1...Self.largestAttachment)
        }
        if let types = r.value("attachment_types") {
            attachmentTypes = try Self.mediaTypePatterns(types, path: "\(path).attachment_types")
        }
        if let mode = try r.optionalString("erase_mode") {
            guard ["delete", "anonymise"].contains(mode) else {
                throw ChannelsConfigError("\(path).erase_mode", "must be delete or anonymise")
            }
            eraseMode = mode
        }
        documentBacklogBytes = try r.int("document_backlog_bytes", default: documentBacklogBytes, range: 65_536...(1 << 30))
        documentBacklogMessages = try r.int("document_backlog_messages", default: documentBacklogMessages, range: 1...100_000)
        if let ratesJSON = r.value("rates") {
            rates = try UserWriteRates(json: ratesJSON, path: "\(path).rates")
        }
    }
}

extension AppLimits {
    /// The most `max_attachment_bytes` may be: uploads are held in memory while they are checked.
    public static let largestAttachment = 256 << 20

    /// `["image/*", "application/pdf"]`: lowercase `type/subtype` patterns, `*` allowed as the
    /// subtype or as both halves.
    static func mediaTypePatterns(_ json: JSONValue, path: String) throws(ChannelsConfigError) -> [String] {
        guard let list = json.arrayValue else { throw ChannelsConfigError(path, "must be an array of media types") }
        var patterns: [String] = []
        for (index, item) in list.enumerated() {
            guard let text = item.stringValue?.lowercased(), isMediaTypePattern(text) else {
                throw ChannelsConfigError("\(path)[\(index)]", "must be a media type such as application/pdf, audio/* or */*")
            }
            patterns.append(text)
        }
        return patterns
    }

    private static func isMediaTypePattern(_ text: String) -> Bool {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, !(halves[0] == "*" && halves[1] != "*") else { return false }
        return halves.allSatisfy { half in
            half == "*"
                || (!half.isEmpty
                    && half.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || ".+-_".utf8.contains($0) })
        }
    }

    /// Whether an upload stored as `contentType` (parameters ignored) is allowed.
    public func allowsAttachment(_ contentType: String) -> Bool {
        guard let attachmentTypes else { return true }
        let essence = (contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType)
            .filter { $0 != " " && $0 != "\t" }.lowercased()
        let top = essence.split(separator: "/", maxSplits: 1).first.map(String.init) ?? essence
        return attachmentTypes.contains { $0 == "*/*" || $0 == essence || $0 == top + "/*" }
    }
}

extension UserWriteRates {
    /// Decodes `{"reactions": {"per_second": 5, "burst": 30}, ...}`; absent kinds keep their
    /// defaults, and `per_second` 0 turns a kind's limit off.
    init(json: JSONValue, path: String) throws(ChannelsConfigError) {
        self.init()
        let r = try ConfigReader(json, path: path)
        for key in r.object.keys where UserWrite(rawValue: key) == nil {
            let known = UserWrite.allCases.map(\.rawValue).joined(separator: ", ")
            throw ChannelsConfigError("\(path).\(key)", "unknown kind of write (known: \(known))")
        }
        for write in UserWrite.allCases {
            guard let json = r.value(write.rawValue) else { continue }
            let rate = try ConfigReader(json, path: "\(path).\(write.rawValue)")
            let perSecond = try rate.number("per_second", default: write.defaultLimit.perSecond, range: 0...1_000_000)
            // A rate given without a burst may spend two seconds' worth at once.
            let fallbackBurst = rate.value("per_second") == nil ? write.defaultLimit.burst : max(perSecond * 2, 1)
            let burst = try rate.number("burst", default: fallbackBurst, range: 1...1_000_000)
            self[write] = RateLimit(perSecond: perSecond, burst: burst)
        }
    }
}

/// Typed member access over a JSON object with error paths.
struct ConfigReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws(ChannelsConfigError) {
        guard let object = value.objectValue else { throw ChannelsConfigError(path, "must be an object") }
        self.object = object
        self.path = path
    }

    func value(_ key: String) -> JSONValue? {
        guard let v = object[key], v != .null else { return nil }
        return v
    }

    func requiredString(_ key: String) throws(ChannelsConfigError) -> String {
        guard let v = value(key) else { throw ChannelsConfigError("\(path).\(key)", "is required") }
        if let i = v.intValue, key == "id" { return String(i) }
        guard let s = v.stringValue, !s.isEmpty else { throw ChannelsConfigError("\(path).\(key)", "must be a non-empty string") }
        return s
    }

    func optionalString(_ key: String) throws(ChannelsConfigError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.stringValue else { throw ChannelsConfigError("\(path).\(key)", "must be a string") }
        return s
    }

    func bool(_ key: String, default fallback: Bool) throws(ChannelsConfigError) -> Bool {
        guard let v = value(key) else { return fallback }
        guard let b = v.boolValue else { throw ChannelsConfigError("\(path).\(key)", "must be true or false") }
        return b
    }

    func number(_ key: String, default fallback: Double, range: ClosedRange<Double>) throws(ChannelsConfigError) -> Double {
        guard let v = value(key) else { return fallback }
        guard let d = v.doubleValue, range.contains(d) else {
            throw ChannelsConfigError("\(path).\(key)", "must be a number in \(range.lowerBound)...\(range.upperBound)")
        }
        return d
    }

    func int(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws(ChannelsConfigError) -> Int {
        guard let v = value(key) else { return fallback }
        guard let i = v.intValue, range.contains(i) else {
            throw ChannelsConfigError("\(path).\(key)", "must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return i
    }
}
