import Synchronization

/// The hosted apps, looked up by key (WebSocket path) or id (HTTP API path).
///
/// Shared by every service of a server and replaced as a whole when the apps file is
/// reloaded (SIGHUP): a lookup after ``replace(with:)`` sees the new apps, and
/// ``generation`` tells holders of an older copy of an app that they should look again.
public final class AppRegistry: Sendable {
    private struct Table: Sendable {
        var apps: [AppConfig]
        var byKey: [String: AppConfig]
        var byID: [String: AppConfig]

        init(_ apps: [AppConfig]) {
            self.apps = apps
            byKey = Dictionary(apps.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            byID = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private let table: Mutex<Table>
    private let generationCounter = Atomic<Int>(0)

    /// Creates a registry from a validated configuration.
    public init(_ config: ChannelsConfig) {
        table = Mutex(Table(config.apps))
    }

    /// All apps in configuration order.
    public var apps: [AppConfig] { table.withLock { $0.apps } }

    /// The app with this key.
    public func app(key: String) -> AppConfig? { table.withLock { $0.byKey[key] } }

    /// The app with this id.
    public func app(id: String) -> AppConfig? { table.withLock { $0.byID[id] } }

    /// How many times the apps were replaced; a holder of an app fetched at an older
    /// generation looks it up again.
    public var generation: Int { generationCounter.load(ordering: .acquiring) }

    /// Serves `config`'s apps from now on and says what changed (by app id).
    @discardableResult
    public func replace(with config: ChannelsConfig) -> AppChanges {
        let changes = table.withLock { table in
            let old = table.byID
            table = Table(config.apps)
            return AppChanges(old: old, new: table.byID)
        }
        generationCounter.add(1, ordering: .releasing)
        return changes
    }
}

/// What a reload of the apps changed, by app id.
public struct AppChanges: Sendable, Equatable {
    /// Apps that are new.
    public var added: [String]
    /// Apps that are gone.
    public var removed: [String]
    /// Apps whose settings differ (secrets included).
    public var changed: [String]

    /// Creates a summary (for tests and logs).
    public init(added: [String], removed: [String], changed: [String]) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    init(old: [String: AppConfig], new: [String: AppConfig]) {
        added = new.keys.filter { old[$0] == nil }.sorted()
        removed = old.keys.filter { new[$0] == nil }.sorted()
        changed = new.compactMap { id, app in old[id].map { $0 == app ? nil : id } ?? nil }.sorted()
    }
}
