import CZlib

/// gzip (RFC 1952) for HTTP bodies sent with `Content-Encoding: gzip`.
///
/// Used for bodies that are compressed once and sent many times (the embedded web client),
/// so it favours size over speed.
public enum Gzip {
    /// `bytes` as one gzip member at the given zlib level (1–9); nil if zlib fails.
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for the gzip wrapper instead of the zlib one.
        guard czlib_deflate_init2(&stream, level, 15 + 16, 9) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, UInt(bytes.count)))
        var status = Z_OK
        let output = bytes.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = UInt32(capacity)
                status = deflate(&stream, Z_FINISH)
                count = capacity - Int(stream.avail_out)
            }
        }
        return status == Z_STREAM_END ? output : nil
    }
}
