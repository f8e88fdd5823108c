/// The hosted apps, looked up by key (WebSocket path) or id (HTTP API path).
public struct AppRegistry: Sendable {
    private let byKey: [String: AppConfig]
    private let byID: [String: AppConfig]

    /// All apps in configuration order.
    public let apps: [AppConfig]

    /// Creates a registry from a validated configuration.
    public init(_ config: ChannelsConfig) {
        apps = config.apps
        byKey = Dictionary(config.apps.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        byID = Dictionary(config.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The app with this key.
    public func app(key: String) -> AppConfig? { byKey[key] }

    /// The app with this id.
    public func app(id: String) -> AppConfig? { byID[id] }
}
