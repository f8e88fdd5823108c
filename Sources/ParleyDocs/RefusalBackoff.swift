/// Slows down a client that keeps sending an update the server refused: y-websocket
/// reconnects at once after a close and sends the same update again, which would otherwise
/// be a tight loop of connections and refusals.
///
/// A value state machine, time passed in: for each (app, document, user) it remembers the
/// fingerprint of the last refused message and how often it came back. The first refusal
/// closes at once; each repeat of the same message waits twice as long before the close
/// (from ``baseDelay`` up to ``maxDelay``), so a reconnecting client sends it at most once
/// per delay. A different message starts over; entries are forgotten after ``memory``.
public struct RefusalBackoff: Sendable {
    struct Entry {
        var fingerprint: UInt64
        var repeats: Int
        var lastSeen: Int64
    }

    /// The wait before closing on the first repeat (ms).
    public let baseDelay: Int64
    /// The longest wait (ms).
    public let maxDelay: Int64
    /// How long a refusal is remembered (ms).
    public let memory: Int64
    /// The most senders remembered; the oldest are forgotten first.
    public let capacity: Int
    private var entries: [String: Entry] = [:]

    /// Creates the policy; times in milliseconds.
    public init(baseDelay: Int64 = 1_000, maxDelay: Int64 = 30_000, memory: Int64 = 600_000, capacity: Int = 10_000) {
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.memory = memory
        self.capacity = capacity
    }

    /// Records that `message` from `sender` was refused at `now`; returns how long to wait
    /// (ms) before closing the connection, 0 for a first refusal.
    public mutating func record(sender: String, message: [UInt8], now: Int64) -> Int64 {
        let fingerprint = Self.fingerprint(message)
        var entry =
            entries[sender].flatMap { now - $0.lastSeen <= memory ? $0 : nil }
            ?? Entry(fingerprint: fingerprint, repeats: -1, lastSeen: now)
        entry.repeats = entry.fingerprint == fingerprint ? entry.repeats + 1 : 0
        entry.fingerprint = fingerprint
        entry.lastSeen = now
        entries[sender] = entry
        if entries.count > capacity { forgetOldest(now: now) }
        guard entry.repeats > 0 else { return 0 }
        let shift = min(entry.repeats - 1, 20)
        return min(baseDelay << Int64(shift), maxDelay)
    }

    /// The number of senders remembered.
    public var count: Int { entries.count }

    private mutating func forgetOldest(now: Int64) {
        entries = entries.filter { now - $0.value.lastSeen <= memory }
        guard entries.count > capacity else { return }
        let kept = entries.sorted { $0.value.lastSeen > $1.value.lastSeen }.prefix(capacity / 2)
        entries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    /// FNV-1a over the message: equal messages, equal fingerprints.
    static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
