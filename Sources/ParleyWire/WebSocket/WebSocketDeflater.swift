import CZlib

/// A raw-deflate compressor for permessage-deflate (RFC 7692 §7.2.1), owning one z_stream.
///
/// The z_stream lives at a fixed heap address because zlib keeps a back-pointer to it.
/// A connection holds its deflater copy-on-write (`copy()` duplicates the stream with
/// `deflateCopy`), so a shared instance is never mutated.
final class WebSocketDeflater: @unchecked Sendable {
    // @unchecked: the stream is mutated only by a connection holding the sole reference
    // (checked with isKnownUniquelyReferenced), so no two threads can touch it at once.
    private let stream: UnsafeMutablePointer<z_stream>
    private let resetsPerMessage: Bool
    private let settings: Settings

    private struct Settings {
        var level: Int32, windowBits: Int32, memoryLevel: Int32
    }

    /// The LZ77 window it compresses with (9–15).
    var windowBits: Int { Int(-settings.windowBits) }
    /// The zlib compression level.
    var level: Int32 { settings.level }
    /// The zlib memLevel.
    var memoryLevel: Int32 { settings.memoryLevel }

    /// Creates a compressor; `windowBits` is the negotiated LZ77 window (8–15).
    ///
    /// zlib refuses a raw-deflate window of 8 (`deflateInit2` returns Z_STREAM_ERROR), so 8 is
    /// raised to 9. That still honours a negotiated `max_window_bits=8`: zlib's deflate never
    /// emits a match distance above `2^windowBits - 262` (250 for 9 bits), below 256.
    init?(windowBits: Int, noContextTakeover: Bool, level: Int32, memoryLevel: Int32) {
        settings = Settings(level: level, windowBits: -Int32(max(9, min(15, windowBits))), memoryLevel: memoryLevel)
        resetsPerMessage = noContextTakeover
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_deflate_init2(stream, settings.level, settings.windowBits, settings.memoryLevel) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    private init?(copying other: WebSocketDeflater) {
        settings = other.settings
        resetsPerMessage = other.resetsPerMessage
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard deflateCopy(stream, other.stream) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// An independent compressor with the same history.
    func copy() -> WebSocketDeflater? { WebSocketDeflater(copying: self) }

    /// Compresses one whole message: raw deflate, sync flush, the trailing
    /// `00 00 ff ff` removed. Appends the result to `output`; false if zlib fails.
    func compressMessage(_ payload: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) -> Bool {
        let start = output.count
        stream.pointee.next_in = UnsafeMutablePointer(mutating: payload.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(payload.count)
        // deflateBound covers the whole message; a sync flush adds at most a few bytes.
        var capacity = Int(deflateBound(stream, UInt(payload.count))) + 64
        while true {
            var status = Z_OK
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(capacity)
                status = deflate(stream, Z_SYNC_FLUSH)
                count = capacity - Int(stream.pointee.avail_out)
            }
            output.append(contentsOf: chunk)
            guard status == Z_OK || status == Z_BUF_ERROR else { return false }
            // With output space left over, zlib has flushed everything.
            if chunk.count < capacity { break }
            capacity = 16 * 1024
        }
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        if output.count - start >= 4, output.suffix(4).elementsEqual([0x00, 0x00, 0xFF, 0xFF]) {
            output.removeLast(4)
        }
        // An empty message after a previous flush yields no output at all; the receiver
        // would then inflate the bare 00 00 ff ff tail mid-stream. A lone 0x00 (RFC 7692
        // §7.2.3.6) becomes an empty stored block once the tail is appended.
        if output.count == start { output.append(0x00) }
        if resetsPerMessage { deflateReset(stream) }
        return true
    }
}
