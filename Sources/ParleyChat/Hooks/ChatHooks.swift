import ParleyWire
import Synchronization

/// The chat service's hook machinery: the poster, the delivery queue shared by chat webhooks
/// and the notification hook, and the notification quiet periods.
///
/// Deliveries are kept in memory on the node that accepted the write (docs/webhooks.md: at
/// least once while the node runs; what is still queued when it stops is lost).
final class ChatHooks: Sendable {
    let poster: any ChatHookPoster
    let dispatcher: ChatHookDispatcher
    let gate = Mutex(NotificationGate())
    private let serial = Atomic<Int>(0)
    /// Makes event ids unique across nodes and restarts without coordination.
    private let idPrefix: String

    init(poster: any ChatHookPoster, queue: ChatHookQueue, wallClock: @escaping @Sendable () -> Int64) {
        self.poster = poster
        let start = ContinuousClock.now
        dispatcher = ChatHookDispatcher(
            queue: queue, poster: poster,
            clock: { (ContinuousClock.now - start).wholeMilliseconds },
            wallClock: wallClock)
        idPrefix = Digest.randomBytes(6).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }

    /// A new event id (`evt_` and a node prefix and a serial number).
    func nextEventID() -> String {
        "evt_\(idPrefix)_\(serial.add(1, ordering: .relaxed).newValue)"
    }

    /// One event object as endpoints receive it.
    func eventJSON(kind: String, data: JSONValue, at wallMillis: Int64) -> JSONValue {
        .object([
            "id": .string(nextEventID()), "type": .string(kind), "created_at": .number(String(wallMillis)), "data": data
        ])
    }
}

extension Duration {
    /// Whole milliseconds.
    fileprivate var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
