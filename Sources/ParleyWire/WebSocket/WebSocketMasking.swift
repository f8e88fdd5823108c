/// XOR masking of WebSocket payloads (RFC 6455 §5.3), eight bytes at a time.
public enum WebSocketMasking {
    /// XORs `buffer` in place with the 4-byte `key`, starting at key position `phase`
    /// (0–3; the payload offset modulo 4), and returns the phase after the last byte.
    ///
    /// Masking is its own inverse, so this both masks and unmasks. The key is kept as a
    /// little-endian 32-bit value, byte `i` of the key in bits `8*i ..< 8*i+8`.
    @inlinable @discardableResult
    public static func apply(key: UInt32, phase: Int, to buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return phase }
        let count = buffer.count
        // Rotate so that byte 0 of the rotated key is the key byte for buffer[0].
        let shift = UInt32((phase & 3) * 8)
        let rotated = shift == 0 ? key : (key >> shift) | (key << (32 - shift))
        var index = 0
        let rotatedLE = rotated.littleEndian
        let wide = UInt64(rotated) | (UInt64(rotated) << 32)
        let wideLE = wide.littleEndian
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: word ^ wideLE, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        if index + 4 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt32.self)
            base.storeBytes(of: word ^ rotatedLE, toByteOffset: index, as: UInt32.self)
            index += 4
        }
        var tailKey = rotated
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            base.storeBytes(of: byte ^ UInt8(truncatingIfNeeded: tailKey), toByteOffset: index, as: UInt8.self)
            tailKey = tailKey >> 8 | tailKey << 24
            index += 1
        }
        return (phase + count) & 3
    }

    /// Packs four key bytes (in wire order) into the form `apply` expects.
    @inlinable
    public static func key(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> UInt32 {
        UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16 | UInt32(b3) << 24
    }
}
