import Testing

@testable import ParleyWire

@Suite struct WebSocketDeflateTests {
    typealias Action = WebSocketConnection.Action

    static func pair(
        _ parameters: WebSocketDeflateParameters, maxMessageSize: Int = 1 << 20
    )
        -> (server: WebSocketConnection, client: WebSocketConnection)
    {
        let options = WebSocketOptions(maxMessageSize: maxMessageSize, deflate: parameters)
        return (WebSocketConnection(role: .server, options: options), WebSocketConnection(role: .client, options: options))
    }

    @Test func rfc7692CompressedHello() {
        var (server, client) = Self.pair(WebSocketDeflateParameters())
        // RFC 7692 §7.2.3.1 and §7.2.3.2 (the second message reuses the LZ77 window).
        #expect(server.send(text: "Hello") == [0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
        #expect(server.send(text: "Hello") == [0xC1, 0x05, 0xF2, 0x00, 0x11, 0x00, 0x00])
        let received = client.receive([
            0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00,
            0xC1, 0x05, 0xF2, 0x00, 0x11, 0x00, 0x00
        ])
        #expect(received == [.message(.text("Hello")), .message(.text("Hello"))])
    }

    @Test func rfc7692OtherEncodingsOfHello() {
        let frames: [[UInt8]] = [
            [0xC1, 0x0B, 0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00],  // stored block
            [0xC1, 0x08, 0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00],  // BFINAL set
            [0xC1, 0x0D, 0xF2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCA, 0xC9, 0xC9, 0x07, 0x00],  // two blocks
            [0x41, 0x03, 0xF2, 0x48, 0xCD, 0x80, 0x04, 0xC9, 0xC9, 0x07, 0x00]  // fragmented
        ]
        for frame in frames {
            var client = WebSocketConnection(
                role: .client,
                options: WebSocketOptions(
                    deflate: WebSocketDeflateParameters(serverNoContextTakeover: true)))
            #expect(client.receive(frame) == [.message(.text("Hello"))], "\(frame)")
            #expect(receiveByteByByte(&client, frame) == [.message(.text("Hello"))], "\(frame) byte by byte")
        }
    }

    @Test func emptyMessageCompressesToOneZeroByte() {
        var (server, client) = Self.pair(WebSocketDeflateParameters())
        let frame = server.send(binary: [])
        #expect(frame == [0xC2, 0x01, 0x00])
        #expect(client.receive(frame) == [.message(.binary([]))])
    }

    @Test func emptyMessageAfterHistoryStillRoundTrips() {
        // zlib emits nothing for an empty sync flush right after another one.
        var (server, client) = Self.pair(WebSocketDeflateParameters())
        let frames = server.send(text: "Hello") + server.send(binary: []) + server.send(text: "") + server.send(text: "Hello")
        #expect(
            client.receive(frames) == [
                .message(.text("Hello")), .message(.binary([])), .message(.text("")),
                .message(.text("Hello"))
            ])
    }

    static let contextCases: [WebSocketDeflateParameters] = [
        WebSocketDeflateParameters(),
        WebSocketDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true),
        WebSocketDeflateParameters(serverNoContextTakeover: true),
        WebSocketDeflateParameters(clientNoContextTakeover: true, serverMaxWindowBits: 8, clientMaxWindowBits: 8),
        WebSocketDeflateParameters(serverMaxWindowBits: 9, clientMaxWindowBits: 12)
    ]

    @Test(arguments: contextCases)
    func roundTripsBothWays(_ parameters: WebSocketDeflateParameters) throws {
        var (server, client) = Self.pair(parameters)
        let messages: [WebSocketMessage] = [
            .text(String(repeating: "the quick brown fox jumps over the lazy dog ", count: 50)),
            .text("κόσμε € 𝄞"),
            .binary((0..<5000).map { UInt8(truncatingIfNeeded: $0 % 251) }),
            .binary(Digest.randomBytes(3000)),  // incompressible
            .text(String(repeating: "the quick brown fox jumps over the lazy dog ", count: 50))
        ]
        for message in messages {
            let fromServer: [UInt8], fromClient: [UInt8]
            switch message {
            case .text(let text): fromServer = server.send(text: text); fromClient = client.send(text: text)
            case .binary(let bytes): fromServer = server.send(binary: bytes); fromClient = client.send(binary: bytes)
            }
            #expect(fromServer[0] & 0x40 != 0 && fromClient[0] & 0x40 != 0, "RSV1 marks compressed messages")
            #expect(client.receive(fromServer) == [.message(message)])
            #expect(server.receive(fromClient) == [.message(message)])
        }
    }

    @Test func contextTakeoverShrinksRepeatsAndNoContextTakeoverDoesNot() {
        let text = String(repeating: "parley realtime chat ", count: 20) + "unique tail"
        var (keeping, _) = Self.pair(WebSocketDeflateParameters())
        let firstKept = keeping.send(text: text), secondKept = keeping.send(text: text)
        #expect(secondKept.count < firstKept.count / 2)
        var (resetting, client) = Self.pair(WebSocketDeflateParameters(serverNoContextTakeover: true))
        let first = resetting.send(text: text), second = resetting.send(text: text)
        #expect(first == second)
        // A peer that reset must still be understood by a receiver told to expect resets.
        #expect(client.receive(first + second).messages == [.text(text), .text(text)])
    }

    @Test func receiverHonoursPeerContextTakeover() {
        // The client keeps its context; a server expecting resets would break, one expecting
        // takeover works — so the parameters really drive the inflater.
        let text = String(repeating: "abcdefgh", count: 40)
        var (server, client) = Self.pair(WebSocketDeflateParameters())
        let stream = client.send(text: text) + client.send(text: text) + client.send(text: text)
        #expect(server.receive(stream).messages == [.text(text), .text(text), .text(text)])
        var resettingServer = WebSocketConnection(
            role: .server,
            options: WebSocketOptions(
                deflate: WebSocketDeflateParameters(clientNoContextTakeover: true)))
        #expect(resettingServer.receive(stream).closeCode == 1007)
    }

    @Test func compressionThresholdSendsSmallMessagesPlain() {
        var server = WebSocketConnection(
            role: .server,
            options: WebSocketOptions(
                deflate: WebSocketDeflateParameters(), compressionThreshold: 64))
        #expect(server.send(text: "tiny") == WebSocketFrame.serverText("tiny"))
        #expect(server.send(text: String(repeating: "x", count: 100))[0] == 0xC1)
    }

    @Test func zipBombIsStoppedAtTheLimit() throws {
        // 16 MiB of zeros deflate to about 16 KiB.
        var (_, bomber) = Self.pair(WebSocketDeflateParameters(), maxMessageSize: 1 << 25)
        let bomb = bomber.send(binary: [UInt8](repeating: 0, count: 1 << 24))
        #expect(bomb.count < 64 * 1024)
        var server = WebSocketConnection(role: .server, options: WebSocketOptions(deflate: WebSocketDeflateParameters()))
        let actions = server.receive(bomb)
        #expect(actions.closeCode == 1009)
        #expect(actions.sentCloseCode == 1009)
    }

    @Test func inflaterStopsJustPastTheLimit() throws {
        let deflater = try #require(WebSocketDeflater(windowBits: 15, noContextTakeover: false, level: 6, memoryLevel: 8))
        var bomb: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: 1 << 24)
        #expect(zeros.withUnsafeBytes { deflater.compressMessage($0, appendingTo: &bomb) })
        let inflater = try #require(WebSocketInflater(windowBits: 15, noContextTakeover: false))
        var output: [UInt8] = []
        #expect(bomb.withUnsafeBytes { inflater.inflate($0, appendingTo: &output, limit: 65_536) } == .tooBig)
        #expect(output.count == 65_537, "decompression stops one byte past the limit, not at 16 MiB")
    }

    @Test func inflatedSizeExactlyAtTheLimitIsAccepted() {
        var (_, client) = Self.pair(WebSocketDeflateParameters())
        let payload = [UInt8](repeating: 3, count: 1000)
        let frame = client.send(binary: payload)
        var exact = WebSocketConnection(
            role: .server, options: WebSocketOptions(maxMessageSize: 1000, deflate: WebSocketDeflateParameters()))
        #expect(exact.receive(frame) == [.message(.binary(payload))])
        var (_, again) = Self.pair(WebSocketDeflateParameters())
        let sameFrame = again.send(binary: payload)
        var under = WebSocketConnection(
            role: .server, options: WebSocketOptions(maxMessageSize: 999, deflate: WebSocketDeflateParameters()))
        #expect(under.receive(sameFrame).closeCode == 1009)
    }

    @Test func corruptCompressedDataIs1007() {
        var server = WebSocketConnection(role: .server, options: WebSocketOptions(deflate: WebSocketDeflateParameters()))
        // 0xFF starts a block with the reserved BTYPE 11.
        #expect(server.receive(WSWire.client(0x2, [0xFF, 0xFF, 0xFF], rsv: 0b100)).closeCode == 1007)
    }

    @Test func compressedTextIsValidatedAsUTF8() {
        var (_, client) = Self.pair(WebSocketDeflateParameters())
        // Compress invalid UTF-8 by sending it as binary, then flip the opcode to text.
        var frame = client.send(binary: [0x61, 0xED, 0xA0, 0x80])
        frame[0] = (frame[0] & 0xF0) | 0x1
        var server = WebSocketConnection(role: .server, options: WebSocketOptions(deflate: WebSocketDeflateParameters()))
        #expect(server.receive(frame).closeCode == 1007)
    }

    @Test func copiedConnectionsDoNotShareCompressionState() {
        var (server, _) = Self.pair(WebSocketDeflateParameters())
        let text = String(repeating: "shared history ", count: 30)
        _ = server.send(text: text)
        var copy = server
        let fromOriginal = server.send(text: text)
        let fromCopy = copy.send(text: text)
        #expect(fromOriginal == fromCopy, "both continue from the same history independently")
    }
}
