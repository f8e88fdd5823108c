import CZlib

/// A raw-inflate decompressor for permessage-deflate (RFC 7692 §7.2.2), owning one z_stream.
///
/// Output is capped by the caller's limit so a small compressed message cannot expand
/// into gigabytes (zip bomb). Held copy-on-write by a connection, like `WebSocketDeflater`.
final class WebSocketInflater: @unchecked Sendable {
    // @unchecked: the stream is mutated only by a connection holding the sole reference
    // (checked with isKnownUniquelyReferenced), so no two threads can touch it at once.
    private let stream: UnsafeMutablePointer<z_stream>
    private let windowBits: Int32
    /// Whether the history is dropped after each message (peer's no_context_takeover).
    let resetsPerMessage: Bool

    /// The outcome of feeding compressed bytes.
    enum Outcome: Equatable {
        /// All input consumed, output within the limit.
        case ok
        /// Output would exceed the limit; the message must be rejected (1009).
        case tooBig
        /// The input is not valid deflate data (1007).
        case corrupt
    }

    /// The bytes RFC 7692 strips from each message and the receiver puts back.
    static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// Creates a decompressor for a peer that compresses with a window of `windowBits`
    /// (8–15). The inflate window is always 15 bits: a larger window accepts anything a
    /// smaller one does, and zlib enforces a smaller window only when a back-reference has
    /// to come from its history rather than from the current output, so a smaller window
    /// would make the verdict on an over-long reference depend on how the bytes arrived.
    init?(windowBits: Int, noContextTakeover: Bool) {
        precondition((8...15).contains(windowBits), "negotiated window bits are 8...15")
        self.windowBits = -15
        resetsPerMessage = noContextTakeover
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init2(stream, self.windowBits) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    private init?(copying other: WebSocketInflater) {
        windowBits = other.windowBits
        resetsPerMessage = other.resetsPerMessage
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateCopy(stream, other.stream) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// An independent decompressor with the same history.
    func copy() -> WebSocketInflater? { WebSocketInflater(copying: self) }

    /// Inflates `input`, appending to `output` while `output.count` stays within `limit`.
    func inflate(_ input: UnsafeRawBufferPointer, appendingTo output: inout [UInt8], limit: Int) -> Outcome {
        guard input.count > 0 else { return .ok }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
        defer { stream.pointee.next_in = nil; stream.pointee.next_out = nil }
        while true {
            let room = limit - output.count
            // One byte beyond the limit tells "exactly at the limit" from "over it".
            let chunk = min(max(room + 1, 1), max(4 * input.count, 16 * 1024))
            var status = Z_OK
            let piece = [UInt8](unsafeUninitializedCapacity: chunk) { buffer, count in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(chunk)
                status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                count = chunk - Int(stream.pointee.avail_out)
            }
            let produced = piece.count
            if output.isEmpty { output = piece } else { output.append(contentsOf: piece) }
            if output.count > limit { return .tooBig }
            switch status {
            case Z_OK, Z_BUF_ERROR:
                // A full output chunk may leave output pending inside zlib: go round again.
                guard produced < chunk else { continue }
                if stream.pointee.avail_in == 0 { return .ok }
                if status == Z_BUF_ERROR && produced == 0 { return .corrupt }
            case Z_STREAM_END:
                // The peer ended the deflate stream (BFINAL); what follows starts afresh.
                inflateReset(stream)
                if stream.pointee.avail_in == 0 { return .ok }
            default:
                return .corrupt
            }
        }
    }

    /// Ends a message: feeds the stripped `00 00 ff ff` tail and resets if required.
    func finishMessage(appendingTo output: inout [UInt8], limit: Int) -> Outcome {
        let outcome = Self.tail.withUnsafeBytes { inflate($0, appendingTo: &output, limit: limit) }
        if resetsPerMessage { inflateReset(stream) }
        return outcome
    }

    /// Drops the history (after a failed message, before the connection closes).
    func reset() { inflateReset(stream) }
}
