import Synchronization

/// Idle zlib streams shared by every connection in the process, for permessage-deflate
/// sides that drop their history after each message (`*_no_context_takeover`).
///
/// Such a stream carries nothing from one message to the next, so a connection needs one
/// only while it is compressing or inflating a message. Holding one per connection cost
/// about 100 KiB of resident memory per idle browser connection and, as thousands of
/// connections came and went, left the allocator's heap fragmented and growing; borrowing
/// from here keeps an idle connection at zero streams. At most `capacity` idle streams are
/// kept per setting; the rest are freed.
final class WebSocketZlibPool: Sendable {
    /// The process-wide pool.
    static let shared = WebSocketZlibPool(capacity: 16)

    private struct DeflaterKey: Hashable {
        var windowBits: Int, level: Int32, memoryLevel: Int32
    }

    private struct Idle: ~Copyable {
        var deflaters: [DeflaterKey: [WebSocketDeflater]] = [:]
        var inflaters: [WebSocketInflater] = []
    }

    private let capacity: Int
    private let idle = Mutex(Idle())

    init(capacity: Int) { self.capacity = capacity }

    /// A compressor that resets after every message: an idle one, or a new one.
    func borrowDeflater(windowBits: Int, level: Int32, memoryLevel: Int32) -> WebSocketDeflater? {
        // The deflater raises a window of 8 to 9 (see its initialiser); key by what it uses.
        let key = DeflaterKey(windowBits: max(9, min(15, windowBits)), level: level, memoryLevel: memoryLevel)
        if let pooled = idle.withLock({ $0.deflaters[key]?.popLast() }) { return pooled }
        return WebSocketDeflater(windowBits: windowBits, noContextTakeover: true, level: level, memoryLevel: memoryLevel)
    }

    /// Gives back a compressor from ``borrowDeflater(windowBits:level:memoryLevel:)`` whose
    /// last message completed (so its stream was reset).
    func giveBack(_ deflater: WebSocketDeflater) {
        let key = DeflaterKey(windowBits: deflater.windowBits, level: deflater.level, memoryLevel: deflater.memoryLevel)
        idle.withLock { idle in
            if idle.deflaters[key, default: []].count < capacity { idle.deflaters[key, default: []].append(deflater) }
        }
    }

    /// A decompressor that resets after every message: an idle one, or a new one.
    func borrowInflater() -> WebSocketInflater? {
        if let pooled = idle.withLock({ $0.inflaters.popLast() }) { return pooled }
        return WebSocketInflater(windowBits: 15, noContextTakeover: true)
    }

    /// Gives back a decompressor; it is reset here, so a message cut short (a failed or
    /// closed connection) leaves nothing behind for the next borrower.
    func giveBack(_ inflater: WebSocketInflater) {
        inflater.reset()
        idle.withLock { idle in
            if idle.inflaters.count < capacity { idle.inflaters.append(inflater) }
        }
    }

    /// How many idle streams the pool holds (tests and metrics).
    var idleCount: Int {
        idle.withLock { $0.deflaters.values.reduce(0) { $0 + $1.count } + $0.inflaters.count }
    }
}
