import Testing

@testable import ParleyWire

/// Sides that reset after every message borrow their zlib stream from the shared pool for
/// one message only, so an idle compressed connection holds no stream at all.
@Suite struct WebSocketDeflatePoolTests {
    static let resetting = WebSocketDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true)

    @Test func idleConnectionsHoldNoStreamsWhenBothSidesReset() {
        var (server, client) = WebSocketDeflateTests.pair(Self.resetting)
        let text = String(repeating: "a message worth compressing ", count: 40)
        for _ in 0..<3 {
            let fromClient = client.send(text: text)
            #expect(fromClient[0] & 0x40 != 0, "compressed")
            #expect(server.receive(fromClient) == [.message(.text(text))])
            let fromServer = server.send(text: text)
            #expect(fromServer[0] & 0x40 != 0, "compressed")
            #expect(client.receive(fromServer) == [.message(.text(text))])
            #expect(server.compressor == nil && server.decompressor == nil, "the server keeps no stream between messages")
            #expect(client.compressor == nil && client.decompressor == nil, "nor does the client")
        }
    }

    @Test func aFragmentedMessageKeepsItsStreamUntilTheLastFrame() throws {
        var (server, client) = WebSocketDeflateTests.pair(Self.resetting)
        let text = String(repeating: "split across reads ", count: 100)
        let frame = client.send(text: text)
        let middle = frame.count / 2
        #expect(server.receive(Array(frame[..<middle])) == [])
        #expect(server.decompressor != nil, "held while the message is incomplete")
        #expect(server.receive(Array(frame[middle...])) == [.message(.text(text))])
        #expect(server.decompressor == nil)
    }

    @Test func aStreamWithHistoryStaysWithItsConnection() {
        var (server, client) = WebSocketDeflateTests.pair(WebSocketDeflateParameters())
        let text = String(repeating: "history helps ", count: 40)
        _ = server.receive(client.send(text: text))
        _ = server.send(text: text)
        #expect(server.compressor != nil && server.decompressor != nil, "context takeover needs its own streams")
    }

    @Test func aClosedConnectionInTheMiddleOfAMessageLeavesAResetStream() {
        var (server, client) = WebSocketDeflateTests.pair(Self.resetting)
        // The first fragment of a message whose later fragments never come, then a close frame
        // (control frames may come between fragments). Cutting a frame's payload short instead
        // would make the close frame's bytes, under the client's random mask, read as the rest
        // of that payload.
        var first = client.send(text: String(repeating: "cut short ", count: 200))
        first[0] &= 0x7F
        #expect(server.receive(first) == [])
        #expect(server.decompressor != nil, "held while the message is incomplete")
        _ = server.receive(client.close(code: .normalClosure))
        #expect(server.decompressor == nil)
        // Whichever connection borrows next starts from a clean stream.
        var (other, otherClient) = WebSocketDeflateTests.pair(Self.resetting)
        let text = String(repeating: "fresh ", count: 50)
        #expect(other.receive(otherClient.send(text: text)) == [.message(.text(text))])
    }
}
