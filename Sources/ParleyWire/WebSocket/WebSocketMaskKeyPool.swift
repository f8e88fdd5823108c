/// Random 4-byte masking keys for client frames, fetched from libcrypto in batches.
///
/// One `RAND_bytes` call per frame costs far more than the masking itself, so keys are
/// drawn 64 at a time. A pool is a value: copying it copies the unused keys, so keep one
/// pool per connection and do not copy connections that are still sending.
public struct WebSocketMaskKeyPool: Sendable {
    @usableFromInline var buffer: [UInt32] = []

    /// How many keys each refill fetches.
    public static let batchSize = 64

    /// Creates an empty pool; the first key triggers the first refill.
    public init() {}

    /// The next unused random key, in the packed form `WebSocketMasking.apply` expects.
    public mutating func next() -> UInt32 {
        if buffer.isEmpty { refill() }
        return buffer.removeLast()
    }

    private mutating func refill() {
        let bytes = Digest.randomBytes(Self.batchSize * 4)
        buffer = bytes.withUnsafeBytes { raw in
            (0..<Self.batchSize).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
        }
    }
}
