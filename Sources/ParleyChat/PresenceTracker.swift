import Synchronization

/// Counts each user's signed-in realtime connections and remembers when they were last seen.
///
/// A user is online while at least one connection is; only the first connection and the
/// last disconnection are transitions worth announcing.
final class PresenceTracker: Sendable {
    /// A user's presence now.
    struct Status: Sendable, Hashable {
        /// Whether a connection is signed in as the user.
        var online: Bool
        /// When the user was last online (milliseconds), if ever since the server started.
        var lastSeenAt: Int64?
    }

    private struct Key: Hashable {
        var app: String
        var user: String
    }

    private struct Entry {
        var connections = 0
        var lastSeenAt: Int64?
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// Counts a connection; true when the user just came online.
    func connect(app: String, user: String, now: Int64) -> Bool {
        entries.withLock { entries in
            let key = Key(app: app, user: user)
            var entry = entries[key] ?? Entry()
            entry.connections += 1
            entry.lastSeenAt = now
            entries[key] = entry
            return entry.connections == 1
        }
    }

    /// Uncounts a connection; true when the user just went offline.
    func disconnect(app: String, user: String, now: Int64) -> Bool {
        entries.withLock { entries in
            let key = Key(app: app, user: user)
            guard var entry = entries[key], entry.connections > 0 else { return false }
            entry.connections -= 1
            entry.lastSeenAt = now
            entries[key] = entry
            return entry.connections == 0
        }
    }

    /// Notes that the user was seen now (online or going offline on another node).
    func seen(app: String, user: String, now: Int64) {
        entries.withLock { $0[Key(app: app, user: user), default: Entry()].lastSeenAt = now }
    }

    /// The user's presence.
    func status(app: String, user: String) -> Status {
        entries.withLock { entries in
            let entry = entries[Key(app: app, user: user)]
            return Status(online: (entry?.connections ?? 0) > 0, lastSeenAt: entry?.lastSeenAt)
        }
    }
}
