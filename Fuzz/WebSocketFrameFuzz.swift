// Fuzz target: WebSocketConnection.receive must never crash, must give the same actions
// however the input is split, must respect the message limit, and must stay silent after
// reporting `.closed`. It also checks the incremental UTF-8 validator against the
// standard library's.
//
// Input layout: byte 0 picks the configuration (role, compression, limit), byte 1 the
// chunk size for the split feed; the rest is the byte stream from the peer.
@testable import ParleyWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrame(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let config = data[0], chunk = Int(data[1] % 17) + 1
    let stream = UnsafeRawBufferPointer(start: data + 2, count: size - 2)
    let role: WebSocketConnection.Role = config & 1 == 0 ? .server : .client
    var deflate: WebSocketDeflateParameters?
    if config & 2 != 0 {
        deflate = WebSocketDeflateParameters(
            serverNoContextTakeover: config & 4 != 0, clientNoContextTakeover: config & 8 != 0,
            serverMaxWindowBits: config & 16 != 0 ? 8 : 15, clientMaxWindowBits: config & 16 != 0 ? 9 : 15)
    }
    let options = WebSocketOptions(maxMessageSize: config & 32 != 0 ? 64 : 4096, deflate: deflate)

    var whole = WebSocketConnection(role: role, options: options)
    let wholeActions = whole.receive(stream)
    checkInvariants(wholeActions, options: options)

    var split = WebSocketConnection(role: role, options: options)
    var splitActions: [WebSocketConnection.Action] = []
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + chunk)
        splitActions += split.receive(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
        offset = end
    }
    checkInvariants(splitActions, options: options)
    // Client frames carry random masks, so compare their writes by length only.
    let a = wholeActions.map { normalized($0, role) }, b = splitActions.map { normalized($0, role) }
    precondition(a == b || earlierFailure(a, b) || earlierFailure(b, a), "actions depend on how the input is split")
    precondition(a != b || whole.state == split.state, "state depends on how the input is split")
    checkUTF8Validator(stream, chunk: chunk)
    return 0
}

/// Streaming inflation may meet corrupt compressed data in a frame that has not fully
/// arrived, so a split feed may fail earlier than a whole one that is still waiting for the
/// rest of that frame. Allowed: `failed` ends in `.closed` and `waiting` has not closed and is
/// a prefix of `failed`'s actions before its close.
private func earlierFailure(_ failed: [WebSocketConnection.Action], _ waiting: [WebSocketConnection.Action]) -> Bool {
    guard case .closed? = failed.last else { return false }
    if waiting.contains(where: { if case .closed = $0 { true } else { false } }) { return false }
    return waiting.count < failed.count && Array(failed.prefix(waiting.count)) == waiting
}

/// The incremental validator, fed in chunks, must agree with the standard library.
private func checkUTF8Validator(_ bytes: UnsafeRawBufferPointer, chunk: Int) {
    var validator = WebSocketUTF8Validator()
    var valid = true
    var offset = 0
    while valid, offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        valid = validator.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
        offset = end
    }
    let reference = String(validating: bytes, as: UTF8.self) != nil
    precondition((valid && validator.isComplete) == reference, "UTF-8 validator disagrees with the standard library")
}

private func checkInvariants(_ actions: [WebSocketConnection.Action], options: WebSocketOptions) {
    for (index, action) in actions.enumerated() {
        switch action {
        case .message(.binary(let bytes)):
            precondition(bytes.count <= options.maxMessageSize, "binary message over the limit")
        case .message(.text(let text)):
            precondition(text.utf8.count <= options.maxMessageSize, "text message over the limit")
        case .ping(let payload), .pong(let payload):
            precondition(payload.count <= 125, "control payload over 125 bytes")
        case .closed:
            precondition(index == actions.count - 1, "actions after .closed")
        case .write:
            break
        }
    }
}

/// When one input carries two faults (say corrupt deflate data and invalid UTF-8 in what
/// did inflate), which one is met first can depend on how the bytes arrive; the close code
/// must not, the reason text may. So close frames compare by code, `.closed` by code.
private func normalized(_ action: WebSocketConnection.Action, _ role: WebSocketConnection.Role) -> WebSocketConnection.Action {
    switch action {
    case .closed(let code, _):
        return .closed(code: code, reason: "")
    case .write(let bytes) where bytes.first == 0x88:
        return .write([0x88] + closeCode(of: bytes))
    case .write(let bytes) where role == .client:
        return .write([UInt8](repeating: 0, count: bytes.count))
    default:
        return action
    }
}

/// The two code bytes of a single close frame we wrote (unmasked when we are the client).
private func closeCode(of frame: [UInt8]) -> [UInt8] {
    guard frame.count >= 2 else { return [] }
    let masked = frame[1] & 0x80 != 0
    let start = masked ? 6 : 2
    guard frame.count >= start + 2 else { return [] }
    let key: [UInt8] = masked ? Array(frame[2..<6]) : [0, 0, 0, 0]
    return [frame[start] ^ key[0], frame[start + 1] ^ key[1]]
}
