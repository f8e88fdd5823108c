import ParleyStore
import ParleyWire
import Synchronization

/// The chat service's hook machinery: the poster, the delivery queue shared by chat webhooks
/// and the notification hook, and the notification quiet periods.
///
/// With a store that has the outbox (migration 12) deliveries are durable: written to the
/// store before the call is answered and sent from there (``ChatHookOutbox``). Without one
/// they are kept in memory on the node that accepted the write (``ChatHookDispatcher``: lost
/// when it stops).
final class ChatHooks: Sendable {
    let poster: any ChatHookPoster
    let dispatcher: ChatHookDispatcher
    let outbox: ChatHookOutbox?
    /// Counters for `/metrics`.
    let statistics: ChatHookStatistics
    /// Quiet periods kept on this node: used only when the store cannot claim them for all nodes.
    let gate = Mutex(NotificationGate())
    private let serial = Atomic<Int>(0)
    /// Makes event ids unique across nodes and restarts without coordination.
    private let idPrefix: String

    init(
        poster: any ChatHookPoster, queue: ChatHookQueue, wallClock: @escaping @Sendable () -> Int64,
        statistics: ChatHookStatistics, outboxStore: (any HookOutboxStore)?, resolve: @escaping ChatHookOutbox.Resolver,
        active: @escaping ChatHookOutbox.Activity
    ) {
        self.poster = poster
        self.statistics = statistics
        outbox = outboxStore.map {
            ChatHookOutbox(
                store: $0, poster: poster, settings: queue, statistics: statistics, wallClock: wallClock, resolve: resolve, active: active)
        }
        let start = ContinuousClock.now
        dispatcher = ChatHookDispatcher(
            queue: queue, poster: poster, statistics: statistics,
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
