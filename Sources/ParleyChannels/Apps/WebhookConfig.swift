/// One webhook endpoint of an app: where to POST, and which events it wants.
public struct WebhookConfig: Sendable, Equatable {
    /// The endpoint URL (plain `http://host[:port]/path`).
    public var url: WebhookURL
    /// The event kinds delivered (nil: all of them).
    public var eventKinds: Set<WebhookEventKind>?
    /// Only channels whose name starts with this.
    public var channelPrefix: String?
    /// Only channels whose name ends with this.
    public var channelSuffix: String?

    /// Creates a webhook that receives every event kind.
    public init(url: WebhookURL, eventKinds: Set<WebhookEventKind>? = nil, channelPrefix: String? = nil, channelSuffix: String? = nil) {
        self.url = url
        self.eventKinds = eventKinds
        self.channelPrefix = channelPrefix
        self.channelSuffix = channelSuffix
    }

    /// Whether an event of this kind on this channel goes to this endpoint.
    public func accepts(_ kind: WebhookEventKind, channel: String) -> Bool {
        if let eventKinds, !eventKinds.contains(kind) { return false }
        if let channelPrefix, !channel.hasPrefix(channelPrefix) { return false }
        if let channelSuffix, !channel.hasSuffix(channelSuffix) { return false }
        return true
    }
}

/// The kinds of webhook events (spec section 8).
public enum WebhookEventKind: String, Sendable, Hashable, CaseIterable {
    case channelOccupied = "channel_occupied"
    case channelVacated = "channel_vacated"
    case memberAdded = "member_added"
    case memberRemoved = "member_removed"
    case clientEvent = "client_event"
    case cacheMiss = "cache_miss"
    case subscriptionCount = "subscription_count"
}

/// A parsed `http://host[:port]/path` webhook address.
public struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The TCP port (80 when absent).
    public var port: Int
    /// The request target, starting with `/` (with any query).
    public var path: String

    /// Parses a URL; nil unless it is `http://` with a host and a valid port.
    public init?(_ text: String) {
        guard text.hasPrefix("http://") else { return nil }
        let rest = text.dropFirst("http://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
        if let colon = authority.lastIndex(of: ":") {
            guard let port = Int(authority[authority.index(after: colon)...]), (1...65535).contains(port) else { return nil }
            self.port = port
            host = String(authority[..<colon])
        } else {
            port = 80
            host = String(authority)
        }
        guard !host.isEmpty, !host.contains("@") else { return nil }
    }

    public var description: String { "http://\(host):\(port)\(path)" }
}
