extension WebSocketConnection {
    /// The frame bytes of a text message (compressed when negotiated); empty once closing.
    public mutating func send(text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { encodeMessage(.text, UnsafeRawBufferPointer($0)) }
    }

    /// The frame bytes of a binary message (compressed when negotiated); empty once closing.
    public mutating func send(binary: [UInt8]) -> [UInt8] {
        binary.withUnsafeBytes { encodeMessage(.binary, $0) }
    }

    /// The frame bytes of a binary message from a raw buffer; empty once closing.
    public mutating func send(binary: UnsafeRawBufferPointer) -> [UInt8] {
        encodeMessage(.binary, binary)
    }

    /// A ping frame; the payload is cut to the 125 bytes a control frame may carry.
    public mutating func ping(_ payload: [UInt8] = []) -> [UInt8] {
        guard state == .open else { return [] }
        return controlFrame(.ping, Array(payload.prefix(125)))
    }

    /// An unsolicited pong frame (a one-way heartbeat); payload cut to 125 bytes.
    public mutating func pong(_ payload: [UInt8] = []) -> [UInt8] {
        guard state == .open else { return [] }
        return controlFrame(.pong, Array(payload.prefix(125)))
    }

    /// Starts the closing handshake: returns the close frame and stops sending.
    ///
    /// A code that may not go on the wire (1005, 1006, 1015, out of range) sends a close
    /// frame without a status. The reason is cut to 123 bytes on a character boundary.
    /// Wait for `.closed` from `receive` (or a timeout of your own) before closing TCP.
    public mutating func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") -> [UInt8] {
        guard state == .open else { return [] }
        state = .closeSent
        // Keep `message`: the peer may still send the rest of a fragmented message, which
        // is then skipped rather than mistaken for a stray continuation.
        messageBuffer = []
        compressor = nil
        return closeFrame(code, reason: reason)
    }

    /// Encodes a data message for this role, compressing it when negotiated and worth it.
    private mutating func encodeMessage(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer) -> [UInt8] {
        guard state == .open else { return [] }
        var out: [UInt8] = []
        if payload.count >= options.compressionThreshold, let deflater = ownOrBorrowedDeflater() {
            var compressed: [UInt8] = []
            compressed.reserveCapacity(payload.count / 2 + 64)
            let succeeded = deflater.compressMessage(payload, appendingTo: &compressed)
            if succeeded && compressor == nil { WebSocketZlibPool.shared.giveBack(deflater) }
            if succeeded {
                let key = nextMaskKey()
                compressed.withUnsafeBytes {
                    WebSocketFrame.encode(opcode: opcode, rsv1: true, payload: $0, maskKey: key, into: &out)
                }
                return out
            }
            // A failed stream can't be trusted for later messages; send plainly from now on.
            compressor = nil
            compressionUnavailable = true
        }
        WebSocketFrame.encode(opcode: opcode, payload: payload, maskKey: nextMaskKey(), into: &out)
        return out
    }

    /// A control frame for this role.
    mutating func controlFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        let key = nextMaskKey()
        payload.withUnsafeBytes { WebSocketFrame.encode(opcode: opcode, payload: $0, maskKey: key, into: &out) }
        return out
    }

    /// A close frame with `code` (omitted when not valid on the wire) and a shortened reason.
    mutating func closeFrame(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        guard code.isValidOnWire else { return controlFrame(.close, []) }
        var payload: [UInt8] = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        payload += Self.truncatedUTF8(reason, maxBytes: 123)
        return controlFrame(.close, payload)
    }

    /// The UTF-8 of `text`, cut to at most `maxBytes` without splitting a character.
    static func truncatedUTF8(_ text: String, maxBytes: Int) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard bytes.count > maxBytes else { return bytes }
        var end = maxBytes
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        bytes.removeSubrange(end...)
        return bytes
    }

    /// A fresh masking key for client frames; nil for the server.
    private mutating func nextMaskKey() -> UInt32? {
        role == .client ? maskKeys.next() : nil
    }

    /// The compressor for this message: borrowed from the shared pool for one message when
    /// this end resets after every message (so an idle connection holds none), else this
    /// connection's own, created on first use and unshared. A borrowed one is not stored in
    /// `compressor`; the caller gives it back once the message is compressed.
    private mutating func ownOrBorrowedDeflater() -> WebSocketDeflater? {
        guard let deflate = options.deflate, !compressionUnavailable else { return nil }
        let server = role == .server
        let windowBits = server ? deflate.serverMaxWindowBits : deflate.clientMaxWindowBits
        let noContextTakeover = server ? deflate.serverNoContextTakeover : deflate.clientNoContextTakeover
        if noContextTakeover {
            let borrowed = WebSocketZlibPool.shared.borrowDeflater(
                windowBits: windowBits, level: options.compressionLevel, memoryLevel: options.compressionMemoryLevel)
            if borrowed == nil { compressionUnavailable = true }
            return borrowed
        }
        if compressor == nil {
            compressor = WebSocketDeflater(
                windowBits: windowBits, noContextTakeover: false,
                level: options.compressionLevel, memoryLevel: options.compressionMemoryLevel)
            if compressor == nil { compressionUnavailable = true }
        } else if !isKnownUniquelyReferenced(&compressor) {
            compressor = compressor?.copy()
        }
        return compressor
    }
}
