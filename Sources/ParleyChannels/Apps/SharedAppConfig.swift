import Synchronization

/// One app's configuration behind a reference that many connections share.
///
/// Every open connection's protocol state names its app; holding the 152-byte value in each
/// of thousands of idle connections was a tenth of what one costs.
public final class SharedAppConfig: Sendable {
    /// The configuration.
    public let value: AppConfig

    /// Wraps a configuration.
    public init(_ value: AppConfig) { self.value = value }
}

/// Hands out one ``SharedAppConfig`` per app for as long as the app's configuration is the
/// same; a changed configuration (a reload) gets a new one, which later connections share.
final class SharedAppConfigs: Sendable {
    private let byKey = Mutex<[String: SharedAppConfig]>([:])

    /// The shared form of `app`.
    func shared(_ app: AppConfig) -> SharedAppConfig {
        byKey.withLock { table in
            if let existing = table[app.key], existing.value == app { return existing }
            let fresh = SharedAppConfig(app)
            table[app.key] = fresh
            return fresh
        }
    }
}
