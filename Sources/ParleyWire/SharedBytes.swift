/// An immutable, reference-counted byte buffer that many connections can queue at once.
///
/// Fan-out encodes a frame once into a `SharedBytes` and hands the same instance to every
/// subscriber's outbound queue; each queue only retains it. The memory is owned by the
/// instance (one allocation, freed in `deinit`), so its address is stable while any queue
/// holds it and `writev` can point straight at it.
public final class SharedBytes: @unchecked Sendable {
    // @unchecked: the bytes are written once in init and never mutated afterwards.
    @usableFromInline let base: UnsafeMutableRawPointer
    /// The number of bytes.
    public let count: Int

    /// Copies `bytes` into a new shared buffer.
    public init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        base = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 16)
        if let source = bytes.baseAddress, count > 0 { base.copyMemory(from: source, byteCount: count) }
    }

    /// Copies an array into a new shared buffer.
    public convenience init(_ bytes: [UInt8]) {
        self.init(unsafeUninitializedCount: bytes.count) { target in
            bytes.withUnsafeBytes { target.copyMemory(from: $0) }
        }
    }

    /// Copies any byte sequence into a new shared buffer.
    public convenience init(_ bytes: some Collection<UInt8>) {
        self.init(unsafeUninitializedCount: bytes.count) { target in
            _ = target.initializeMemory(as: UInt8.self, from: bytes)
        }
    }

    /// Allocates `count` bytes and lets `fill` write all of them (encode straight into place).
    public init(unsafeUninitializedCount count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 16)
        fill(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    deinit { base.deallocate() }

    /// The first byte; valid while this instance is alive (e.g. for `writev`). Never written through.
    @inlinable public var baseAddress: UnsafeRawPointer { UnsafeRawPointer(base) }

    /// Calls `body` with the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes as an array (for tests and diagnostics).
    public var array: [UInt8] { withUnsafeBytes { Array($0) } }
}
