import Synchronization

/// When each member last sent to each slow-mode room, on this node: the pace check of slow mode.
///
/// A send reserves its slot before it is stored and hands it back if the store refuses it, so
/// two sends racing from one member cannot both pass. Kept per node: in a cluster a member
/// whose sends reach different nodes is paced on each of them. Bounded: past `capacity`
/// entries the oldest half is dropped (those members' next sends pass).
final class SlowModeGate: Sendable {
    struct Key: Hashable {
        var app: String
        var room: String
        var user: String
    }

    private let capacity: Int
    private let lastSends = Mutex<[Key: Int64]>([:])

    /// A gate remembering at most `capacity` members.
    init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// Takes the slot at `now` (milliseconds) and returns nil, or returns the whole seconds to
    /// wait when the member's last send was less than `interval` seconds ago.
    func reserve(_ key: Key, interval: Int, now: Int64) -> (previous: Int64?, wait: Int64?) {
        lastSends.withLock { sends in
            let previous = sends[key]
            if let previous, now - previous < Int64(interval) * 1000 {
                let remaining = Int64(interval) * 1000 - (now - previous)
                return (previous, (remaining + 999) / 1000)
            }
            if sends.count >= capacity { Self.dropOldestHalf(&sends) }
            sends[key] = now
            return (previous, nil)
        }
    }

    /// Gives back a slot taken at `taken` whose send failed.
    func release(_ key: Key, taken: Int64, previous: Int64?) {
        lastSends.withLock { sends in
            guard sends[key] == taken else { return }
            sends[key] = previous
        }
    }

    private static func dropOldestHalf(_ sends: inout [Key: Int64]) {
        let cut = sends.values.sorted()[sends.count / 2]
        sends = sends.filter { $0.value >= cut }
    }
}
