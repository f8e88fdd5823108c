// Fuzz target: permessage-deflate round trips. Whatever messages one end compresses (any
// parameters, context takeover or not, 8-bit windows), the other end must inflate back
// exactly, in both directions, however the frames are split on the way.
//
// Input layout: byte 0 picks the parameters, byte 1 the read size; the rest is split into
// messages at every 0xFF byte. Odd messages go server → client, even ones client → server.
@testable import ParleyWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketDeflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let config = data[0], readSize = Int(data[1]) + 1
    let parameters = WebSocketDeflateParameters(
        serverNoContextTakeover: config & 1 != 0, clientNoContextTakeover: config & 2 != 0,
        serverMaxWindowBits: 8 + Int(config >> 2 & 7), clientMaxWindowBits: 15 - Int(config >> 5 & 7))
    let options = WebSocketOptions(
        maxMessageSize: 1 << 20, deflate: parameters,
        compressionLevel: config & 0x80 != 0 ? 1 : 9,
        compressionThreshold: Int(config & 0x10))
    var server = WebSocketConnection(role: .server, options: options)
    var client = WebSocketConnection(role: .client, options: options)
    let body = UnsafeBufferPointer(start: data + 2, count: size - 2)
    for (index, message) in body.split(separator: 0xFF, omittingEmptySubsequences: false).enumerated() {
        let payload = Array(message)
        let text = index % 3 == 0
        let expected: WebSocketMessage = text ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
        let fromServer = index % 2 == 1
        let frame: [UInt8]
        switch (expected, fromServer) {
        case (.text(let string), true): frame = server.send(text: string)
        case (.text(let string), false): frame = client.send(text: string)
        case (.binary(let bytes), true): frame = server.send(binary: bytes)
        case (.binary(let bytes), false): frame = client.send(binary: bytes)
        }
        var actions: [WebSocketConnection.Action] = []
        var offset = 0
        while offset < frame.count {
            let end = min(frame.count, offset + readSize)
            let piece = Array(frame[offset..<end])
            actions += fromServer ? client.receive(piece) : server.receive(piece)
            offset = end
        }
        precondition(actions == [.message(expected)], "compressed message did not round-trip")
    }
    return 0
}
