import ParleyChannels
import Synchronization

/// Remembers tokens that passed verification, so a client that sends the same token with every
/// request costs one dictionary lookup instead of two base64 decodes, two JSON parses and an
/// HMAC per request.
///
/// Keyed by the exact token text and the app the request named: a forged or altered token is
/// a different key and goes through full verification. Only successes are stored, each with
/// the window in which full verification would accept it again (`nbf`/`iat` and `exp`, leeway
/// applied), so a hit answers exactly what verifying would. Bounded: at capacity, expired
/// entries go first, then arbitrary ones (a quarter of the capacity at a time).
final class VerifiedTokenCache: Sendable {
    struct Key: Hashable {
        var token: String
        var expectedApp: String?
    }

    struct Entry {
        var app: AppConfig
        var claims: UserToken
        /// The first and last second (inclusive) at which the token verifies.
        var validFrom: Int64
        var validUntil: Int64
    }

    private let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    /// A cache of at most `capacity` tokens (0 keeps nothing).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The verified app and claims of `key`, if it is cached and valid at `now` (seconds).
    func lookup(_ key: Key, now: Int64) -> (AppConfig, UserToken)? {
        guard capacity > 0 else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[key], entry.validFrom <= now, now <= entry.validUntil else { return nil }
            return (entry.app, entry.claims)
        }
    }

    /// Remembers a verified token.
    func store(_ key: Key, _ entry: Entry, now: Int64) {
        guard capacity > 0 else { return }
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil {
                // Make room for a quarter of the capacity at once, so a full cache of valid
                // tokens does not pay an O(capacity) sweep on every new token.
                entries = entries.filter { $0.value.validUntil >= now }
                let target = capacity - max(1, capacity / 4)
                while entries.count > target { entries.remove(at: entries.startIndex) }
            }
            entries[key] = entry
        }
    }

    /// Forgets every cached token of one user of one app (the user was deleted).
    func forget(app: String, user: String) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.app.id != app || $0.value.claims.userID != user }
        }
    }

    /// Forgets every cached token (the apps were reloaded: a secret may be gone).
    func forgetAll() {
        entries.withLock { $0.removeAll() }
    }

    /// How many tokens are cached (for tests).
    var count: Int { entries.withLock { $0.count } }
}
