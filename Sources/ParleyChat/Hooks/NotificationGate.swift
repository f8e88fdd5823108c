/// Which members may be notified about a room now: at most once per quiet period each.
///
/// I/O-free with time passed in. Bounded: once `capacity` entries are kept, the ones whose
/// quiet period has passed are forgotten, and if none has, the oldest go.
struct NotificationGate: Sendable {
    struct Key: Hashable, Sendable {
        var app: String
        var room: String
        var user: String
    }

    /// Most members remembered.
    let capacity: Int
    private var lastNotified: [Key: Int64] = [:]

    init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// True (and remembered) when the member was not notified about the room within `quiet` ms.
    mutating func admit(_ key: Key, now: Int64, quiet: Int64) -> Bool {
        if let last = lastNotified[key], now - last < quiet { return false }
        if lastNotified.count >= capacity { prune(now: now, quiet: quiet) }
        lastNotified[key] = now
        return true
    }

    private mutating func prune(now: Int64, quiet: Int64) {
        lastNotified = lastNotified.filter { now - $0.value < quiet }
        guard lastNotified.count >= capacity else { return }
        let keep = lastNotified.sorted { $0.value > $1.value }.prefix(capacity / 2)
        lastNotified = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }
}
