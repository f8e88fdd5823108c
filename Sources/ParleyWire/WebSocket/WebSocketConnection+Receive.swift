extension WebSocketConnection {
    /// Processes bytes read from the socket and returns what to do, in order.
    ///
    /// Any split of the byte stream gives the same actions. Payloads stream straight into
    /// the message buffer (unmasked in place), so only a partial frame header is ever held
    /// back between calls.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) -> [Action] {
        var actions: [Action] = []
        var offset = 0
        while offset < bytes.count, state != .closed {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            offset += frame == nil ? readHeader(rest, &actions) : readPayload(rest, &actions)
        }
        return actions
    }

    /// Processes bytes read from the socket (array convenience).
    public mutating func receive(_ bytes: [UInt8]) -> [Action] {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// Reads (part of) a frame header; returns how many bytes it used.
    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer, _ actions: inout [Action]) -> Int {
        let result: WebSocketFrameHeader.ParseResult
        let previous = partialHeader.count
        var used: Int
        if previous == 0 {
            result = WebSocketFrameHeader.parse(bytes)
            used = bytes.count
        } else {
            used = min(WebSocketFrameHeader.maximumSize - previous, bytes.count)
            partialHeader.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<used]))
            result = partialHeader.withUnsafeBytes { WebSocketFrameHeader.parse($0) }
        }
        switch result {
        case .incomplete:
            if previous == 0 { partialHeader.append(contentsOf: bytes) }
            return used
        case .invalidLength:
            fail(.protocolError, "frame length out of range", &actions)
            return bytes.count
        case .header(let header, let size):
            partialHeader = []
            used = size - previous
            startFrame(header, &actions)
            return used
        }
    }

    /// Checks a frame header against the protocol rules and prepares for its payload.
    private mutating func startFrame(_ header: WebSocketFrameHeader, _ actions: inout [Action]) {
        guard let opcode = header.opcode else { return fail(.protocolError, "reserved opcode", &actions) }
        guard header.reservedBits & 0b011 == 0 else { return fail(.protocolError, "reserved bits set", &actions) }
        if header.rsv1 {
            guard options.deflate != nil, opcode == .text || opcode == .binary else {
                return fail(.protocolError, "RSV1 set without compression", &actions)
            }
        }
        switch role {
        case .server where header.maskKey == nil: return fail(.protocolError, "unmasked client frame", &actions)
        case .client where header.maskKey != nil: return fail(.protocolError, "masked server frame", &actions)
        default: break
        }
        let length = header.payloadLength
        if opcode.isControl {
            guard header.fin else { return fail(.protocolError, "fragmented control frame", &actions) }
            guard length <= 125 else { return fail(.protocolError, "control frame over 125 bytes", &actions) }
            controlBuffer.removeAll(keepingCapacity: true)
        } else {
            if opcode == .continuation {
                guard message != nil else { return fail(.protocolError, "continuation without a message", &actions) }
            } else {
                guard message == nil else { return fail(.protocolError, "new message inside a fragmented one", &actions) }
                message = InboundMessage(isText: opcode == .text, compressed: header.rsv1)
                utf8 = WebSocketUTF8Validator()
                compressedReceived = 0
            }
            guard countFragment(length: length, fin: header.fin, &actions),
                admitDataFrame(length: length, &actions)
            else { return }
        }
        frame = InboundFrame(opcode: opcode, fin: header.fin, maskKey: header.maskKey, remaining: length, phase: 0)
        if length == 0 { endFrame(&actions) }
    }

    /// Bounds the frames of one message (1008 past the bounds): the size limit alone never
    /// ends a message that keeps arriving in empty fragments.
    private mutating func countFragment(length: UInt64, fin: Bool, _ actions: inout [Action]) -> Bool {
        guard var current = message else { return true }
        current.fragments += 1
        if length == 0 && !fin { current.emptyFragments += 1 }
        message = current
        if current.fragments > options.maxFragmentsPerMessage {
            fail(.policyViolation, "too many fragments in one message", &actions)
            return false
        }
        if current.emptyFragments > options.maxEmptyFragmentsPerMessage {
            fail(.policyViolation, "too many empty fragments in one message", &actions)
            return false
        }
        return true
    }

    /// Enforces the message size limit before any payload is buffered.
    private mutating func admitDataFrame(length: UInt64, _ actions: inout [Action]) -> Bool {
        guard state == .open, let message else { return true }
        let limit = UInt64(options.maxMessageSize)
        if message.compressed {
            // Compressed bytes are inflated as they arrive (and the output capped there);
            // this bound only stops an endless stream that inflates to nothing.
            compressedReceived += length
            guard compressedReceived <= 2 * limit + 1024 else {
                fail(.messageTooBig, "compressed message too big", &actions)
                return false
            }
        } else {
            guard UInt64(messageBuffer.count) + length <= limit else {
                fail(.messageTooBig, "message too big", &actions)
                return false
            }
            messageBuffer.reserveGrowing(toAtLeast: messageBuffer.count + Int(length))
        }
        return true
    }

    /// Takes as much of the current frame's payload as `bytes` holds; returns the count.
    private mutating func readPayload(_ bytes: UnsafeRawBufferPointer, _ actions: inout [Action]) -> Int {
        guard var current = frame else { return 0 }
        let count = Int(min(UInt64(bytes.count), current.remaining))
        let chunk = UnsafeRawBufferPointer(rebasing: bytes[..<count])
        current.remaining -= UInt64(count)
        if current.opcode.isControl {
            Self.appendUnmasked(chunk, frame: &current, to: &controlBuffer)
        } else if state == .open, let message {
            if message.compressed {
                guard inflatePayload(chunk, frame: &current, isText: message.isText, &actions) else { return count }
            } else {
                let start = messageBuffer.count
                Self.appendUnmasked(chunk, frame: &current, to: &messageBuffer)
                if message.isText, !validateText(from: start, &actions) { return count }
            }
        }
        frame = current
        if current.remaining == 0 { endFrame(&actions) }
        return count
    }

    /// Copies payload bytes to the end of `buffer`, unmasking them there.
    private static func appendUnmasked(_ chunk: UnsafeRawBufferPointer, frame: inout InboundFrame, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: chunk.assumingMemoryBound(to: UInt8.self))  // memcpy, not a byte loop
        guard let key = frame.maskKey else { return }
        buffer.withUnsafeMutableBytes { raw in
            frame.phase = WebSocketMasking.apply(
                key: key, phase: frame.phase,
                to: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
        }
    }

    /// Validates message-buffer text from `start` (to `end`, default the end); fails with 1007.
    private mutating func validateText(from start: Int, to end: Int? = nil, _ actions: inout [Action]) -> Bool {
        let end = end ?? messageBuffer.count
        let valid = messageBuffer.withUnsafeBytes { utf8.consume(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        if !valid { fail(.invalidPayload, "invalid UTF-8 in text message", &actions) }
        return valid
    }

    /// Inflates a chunk of a compressed message into the message buffer.
    private mutating func inflatePayload(
        _ chunk: UnsafeRawBufferPointer, frame: inout InboundFrame, isText: Bool,
        _ actions: inout [Action]
    ) -> Bool {
        guard let inflater = uniqueInflater() else {
            fail(.internalError, "decompressor unavailable", &actions)
            return false
        }
        let start = messageBuffer.count
        let outcome: WebSocketInflater.Outcome
        if frame.maskKey == nil {
            outcome = inflater.inflate(chunk, appendingTo: &messageBuffer, limit: options.maxMessageSize)
        } else {
            scratch.removeAll(keepingCapacity: true)
            Self.appendUnmasked(chunk, frame: &frame, to: &scratch)
            outcome = scratch.withUnsafeBytes { inflater.inflate($0, appendingTo: &messageBuffer, limit: options.maxMessageSize) }
        }
        return inflated(outcome, from: start, isText: isText, &actions)
    }

    /// Acts on an inflate outcome: 1009 over the limit, 1007 for corrupt data or bad UTF-8.
    ///
    /// The inflated text is validated before the outcome is reported, so the verdict does
    /// not depend on how the compressed bytes were split across reads.
    private mutating func inflated(
        _ outcome: WebSocketInflater.Outcome, from start: Int, isText: Bool,
        _ actions: inout [Action]
    ) -> Bool {
        if isText {
            let end = min(messageBuffer.count, options.maxMessageSize)
            guard start >= end || validateText(from: start, to: end, &actions) else { return false }
        }
        switch outcome {
        case .tooBig:
            fail(.messageTooBig, "message too big", &actions)
            return false
        case .corrupt:
            fail(.invalidPayload, "invalid compressed data", &actions)
            return false
        case .ok:
            return true
        }
    }

    /// Completes the current frame, and its message if it was the last fragment.
    private mutating func endFrame(_ actions: inout [Action]) {
        guard let finished = frame else { return }
        frame = nil
        if finished.opcode.isControl { return handleControl(finished.opcode, &actions) }
        guard finished.fin, let completed = message else { return }
        message = nil
        guard state == .open else { return messageBuffer.removeAll() }
        if completed.compressed {
            let start = messageBuffer.count
            guard let outcome = finishInflating() else { return fail(.internalError, "decompressor unavailable", &actions) }
            if decompressor?.resetsPerMessage == true { releaseInflater() }
            guard inflated(outcome, from: start, isText: completed.isText, &actions) else { return }
        }
        if completed.isText {
            guard utf8.isComplete else { return fail(.invalidPayload, "text message ends inside a code point", &actions) }
            actions.append(.message(.text(String(decoding: messageBuffer, as: UTF8.self))))
        } else {
            actions.append(.message(.binary(messageBuffer)))
        }
        // Hand the storage to the message; an idle connection keeps no buffer.
        messageBuffer = []
        if scratch.capacity > 4096 { scratch = [] }
    }

    /// Answers a complete control frame.
    private mutating func handleControl(_ opcode: WebSocketOpcode, _ actions: inout [Action]) {
        let payload = controlBuffer
        controlBuffer.removeAll(keepingCapacity: true)
        switch opcode {
        case .ping:
            if state == .open { actions.append(.write(controlFrame(.pong, payload))) }
            actions.append(.ping(payload))
        case .pong:
            actions.append(.pong(payload))
        default:
            handleClose(payload, &actions)
        }
    }

    /// Validates the peer's close frame and completes the closing handshake.
    private mutating func handleClose(_ payload: [UInt8], _ actions: inout [Action]) {
        var code = WebSocketCloseCode.noStatusReceived
        var reason = ""
        if payload.count == 1 { return fail(.protocolError, "close frame with a 1-byte payload", &actions) }
        if payload.count >= 2 {
            code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
            guard code.isValidOnWire else { return fail(.protocolError, "invalid close code", &actions) }
            var validator = WebSocketUTF8Validator()
            let reasonBytes = payload[2...]
            guard reasonBytes.withUnsafeBytes({ validator.consume($0) }), validator.isComplete else {
                return fail(.invalidPayload, "invalid UTF-8 in close reason", &actions)
            }
            reason = String(decoding: reasonBytes, as: UTF8.self)
        }
        if state == .open {
            // Echo the peer's code (RFC 6455 §5.5.1); an empty close is answered in kind.
            actions.append(.write(closeFrame(code, reason: "")))
        }
        finish(code, reason, &actions)
    }

    /// Fails the connection: sends a close frame with `code` unless one was already sent.
    mutating func fail(_ code: WebSocketCloseCode, _ reason: String, _ actions: inout [Action]) {
        if state == .open { actions.append(.write(closeFrame(code, reason: reason))) }
        finish(code, reason, &actions)
    }

    /// Enters the closed state, releasing buffers and compression streams.
    private mutating func finish(_ code: WebSocketCloseCode, _ reason: String, _ actions: inout [Action]) {
        state = .closed
        frame = nil
        message = nil
        partialHeader = []
        messageBuffer = []
        controlBuffer = []
        scratch = []
        compressor = nil
        releaseInflater()
        actions.append(.closed(code: code, reason: reason))
    }

    /// The decompressor for the peer's messages, unshared: while the peer resets after every
    /// message, one borrowed from the shared pool for the length of a message (an idle
    /// connection holds none); otherwise this connection's own, created on first use.
    private mutating func uniqueInflater() -> WebSocketInflater? {
        guard let deflate = options.deflate else { return nil }
        let peerResets = role == .server ? deflate.clientNoContextTakeover : deflate.serverNoContextTakeover
        if decompressor == nil {
            if peerResets {
                decompressor = WebSocketZlibPool.shared.borrowInflater()
            } else {
                decompressor =
                    role == .server
                    ? WebSocketInflater(windowBits: deflate.clientMaxWindowBits, noContextTakeover: false)
                    : WebSocketInflater(windowBits: deflate.serverMaxWindowBits, noContextTakeover: false)
            }
        } else if !isKnownUniquelyReferenced(&decompressor) {
            decompressor = decompressor?.copy()
        }
        return decompressor
    }

    /// Inflates the stripped tail of the current message (in a function of its own so that no
    /// local reference outlives it and `releaseInflater` can see the stream is unshared).
    private mutating func finishInflating() -> WebSocketInflater.Outcome? {
        guard let inflater = uniqueInflater() else { return nil }
        return inflater.finishMessage(appendingTo: &messageBuffer, limit: options.maxMessageSize)
    }

    /// Lets go of the decompressor: a pooled one goes back to the pool (unless a copy of
    /// this connection still shares it), an own one is freed.
    private mutating func releaseInflater() {
        guard var inflater = decompressor else { return }
        decompressor = nil
        if inflater.resetsPerMessage && isKnownUniquelyReferenced(&inflater) {
            WebSocketZlibPool.shared.giveBack(inflater)
        }
    }
}
