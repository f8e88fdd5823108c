import Testing

@testable import ParleyWire

@Suite struct WebSocketConnectionTests {
    typealias Action = WebSocketConnection.Action

    static func server(
        maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize,
        deflate: WebSocketDeflateParameters? = nil
    ) -> WebSocketConnection {
        WebSocketConnection(role: .server, options: WebSocketOptions(maxMessageSize: maxMessageSize, deflate: deflate))
    }

    /// Feeds `bytes` to a fresh server and returns the code it closed with (nil if it didn't).
    static func serverCloseCode(_ bytes: [UInt8], deflate: WebSocketDeflateParameters? = nil) -> UInt16? {
        var connection = server(deflate: deflate)
        let actions = connection.receive(bytes)
        if let code = actions.closeCode {
            #expect(connection.state == .closed)
            #expect(actions.sentCloseCode == code, "the close frame sent carries the same code")
        }
        return actions.closeCode
    }

    @Test func textAndBinaryMessages() {
        var connection = Self.server()
        let actions = connection.receive(WSWire.client(0x1, Array("Hello".utf8)) + WSWire.client(0x2, [0, 255, 7]))
        #expect(actions == [.message(.text("Hello")), .message(.binary([0, 255, 7]))])
        #expect(connection.state == .open)
        var client = WebSocketConnection(role: .client)
        #expect(client.receive(WSWire.server(0x1, Array("Hi".utf8))) == [.message(.text("Hi"))])
    }

    @Test func emptyMessages() {
        var connection = Self.server()
        #expect(connection.receive(WSWire.client(0x1, []) + WSWire.client(0x2, [])) == [.message(.text("")), .message(.binary([]))])
    }

    @Test func maskingRules() {
        // Server: unmasked client frame → 1002.
        #expect(Self.serverCloseCode(WSWire.server(0x1, Array("hi".utf8))) == 1002)
        // Client: masked server frame → 1002, answered with a masked close frame.
        var client = WebSocketConnection(role: .client)
        let actions = client.receive(WSWire.client(0x1, Array("hi".utf8)))
        #expect(actions.closeCode == 1002)
        #expect(actions.sentCloseCode == 1002)
        #expect(WSWire.decode(actions.first?.written ?? [])?.masked == true)
    }

    @Test func reservedBitsAndOpcodes() {
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0x61], rsv: 0b010)) == 1002)  // RSV2
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0x61], rsv: 0b001)) == 1002)  // RSV3
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0x61], rsv: 0b100)) == 1002)  // RSV1 without deflate
        let deflate = WebSocketDeflateParameters()
        // RSV1 only on the first frame of a data message.
        #expect(
            Self.serverCloseCode(
                WSWire.client(0x1, [0x61], fin: false) + WSWire.client(0x0, [0x61], rsv: 0b100),
                deflate: deflate) == 1002)
        #expect(Self.serverCloseCode(WSWire.client(0x9, [], rsv: 0b100), deflate: deflate) == 1002)
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0x61], rsv: 0b010), deflate: deflate) == 1002)
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            #expect(Self.serverCloseCode(WSWire.client(opcode, [])) == 1002, "opcode \(opcode)")
        }
    }

    @Test func controlFrameRules() {
        #expect(Self.serverCloseCode(WSWire.client(0x9, [UInt8](repeating: 1, count: 126))) == 1002)
        #expect(Self.serverCloseCode(WSWire.client(0x9, [], fin: false)) == 1002)
        #expect(Self.serverCloseCode(WSWire.client(0x8, [0x03, 0xE8], fin: false)) == 1002)
        var connection = Self.server()
        let maxPing = [UInt8](repeating: 9, count: 125)
        let actions = connection.receive(WSWire.client(0x9, maxPing))
        #expect(actions.count == 2)
        #expect(WSWire.decode(actions[0].written ?? [])?.opcode == 0xA)
        #expect(WSWire.decode(actions[0].written ?? [])?.payload == maxPing)
        #expect(actions[1] == .ping(maxPing))
        #expect(connection.receive(WSWire.client(0xA, [1])) == [.pong([1])])
    }

    @Test func fragmentationWithInterleavedPing() throws {
        var connection = Self.server()
        let bytes =
            WSWire.client(0x1, Array("Hel".utf8), fin: false)
            + WSWire.client(0x9, Array("are you there".utf8))
            + WSWire.client(0x0, Array("lo, ".utf8), fin: false)
            + WSWire.client(0xA, [])
            + WSWire.client(0x0, Array("world".utf8))
        let actions = connection.receive(bytes)
        #expect(actions.count == 4)
        let pong = try #require(WSWire.decode(actions[0].written ?? []))
        #expect(pong.opcode == 0xA && pong.payload == Array("are you there".utf8) && !pong.masked)
        #expect(Array(actions[1...]) == [.ping(Array("are you there".utf8)), .pong([]), .message(.text("Hello, world"))])
    }

    @Test func fragmentationSequenceErrors() {
        #expect(Self.serverCloseCode(WSWire.client(0x0, [0x61])) == 1002)
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0x61], fin: false) + WSWire.client(0x1, [0x62])) == 1002)
        #expect(Self.serverCloseCode(WSWire.client(0x2, [0x61], fin: false) + WSWire.client(0x1, [0x62])) == 1002)
        // After a complete fragmented message, a continuation has nothing to continue.
        #expect(Self.serverCloseCode(WSWire.client(0x2, [1], fin: false) + WSWire.client(0x0, [2]) + WSWire.client(0x0, [3])) == 1002)
    }

    @Test func byteByByteFeedingGivesTheSameActions() {
        let stream =
            WSWire.client(0x1, Array("κόσμε".utf8), fin: false) + WSWire.client(0x9, [1, 2, 3])
            + WSWire.client(0x0, Array(" and more".utf8)) + WSWire.client(0x2, [UInt8](repeating: 5, count: 300))
            + WSWire.client(0x2, [UInt8](repeating: 6, count: 70_000))
            + WSWire.client(0x8, WSWire.closePayload(1000, "done"))
        var whole = Self.server(maxMessageSize: 100_000)
        var trickled = Self.server(maxMessageSize: 100_000)
        let expected = whole.receive(stream)
        #expect(expected.messages.count == 3)
        #expect(expected.closeCode == 1000)
        #expect(receiveByteByByte(&trickled, stream) == expected)
    }

    @Test func utf8SplitAcrossFragments() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        for cut in 1..<3 {
            var connection = Self.server()
            let actions = connection.receive(
                WSWire.client(0x1, [0x61] + euro[..<cut], fin: false)
                    + WSWire.client(0x0, Array(euro[cut...]) + [0x62]))
            #expect(actions == [.message(.text("a€b"))], "cut \(cut)")
        }
        // The same split with a bad continuation byte fails with 1007.
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0xE2, 0x82], fin: false) + WSWire.client(0x0, [0x41])) == 1007)
        // A message that ends inside a code point.
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0x61, 0xE2, 0x82], fin: false) + WSWire.client(0x0, [])) == 1007)
        #expect(Self.serverCloseCode(WSWire.client(0x1, [0xCE, 0xBA, 0xED, 0xA0, 0x80])) == 1007)
        // Binary messages are not validated.
        var binary = Self.server()
        #expect(binary.receive(WSWire.client(0x2, [0xFF, 0xFE])) == [.message(.binary([0xFF, 0xFE]))])
    }

    @Test func invalidUTF8FailsFastBeforeTheMessageEnds() {
        var connection = Self.server()
        // First fragment is invalid; the final fragment never arrives.
        #expect(connection.receive(WSWire.client(0x1, [0x61, 0xFF], fin: false)).closeCode == 1007)
        // Within one frame: only the first part of the payload has arrived.
        var partial = Self.server()
        let frame = WSWire.client(0x1, [0x61, 0xC0] + [UInt8](repeating: 0x61, count: 100))
        #expect(partial.receive(Array(frame.prefix(10))).closeCode == 1007)
    }

    @Test func closeHandshakeEchoesCode() throws {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 3000, 4999] {
            var connection = Self.server()
            let actions = connection.receive(WSWire.client(0x8, WSWire.closePayload(code, "bye ✓")))
            #expect(actions.count == 2)
            let reply = try #require(WSWire.decode(actions[0].written ?? []))
            #expect(reply.opcode == 0x8 && reply.payload == WSWire.closePayload(code))
            #expect(actions[1] == .closed(code: WebSocketCloseCode(code), reason: "bye ✓"))
            #expect(connection.state == .closed)
            #expect(connection.receive(WSWire.client(0x1, [0x61])) == [], "nothing after close")
            #expect(connection.send(text: "late") == [])
        }
    }

    @Test func emptyCloseIsAnsweredEmpty() throws {
        var connection = Self.server()
        let actions = connection.receive(WSWire.client(0x8, []))
        #expect(actions.count == 2)
        #expect(WSWire.decode(actions[0].written ?? [])?.payload == [])
        #expect(actions[1] == .closed(code: .noStatusReceived, reason: ""))
    }

    @Test func invalidCloseFrames() {
        #expect(Self.serverCloseCode(WSWire.client(0x8, [0x03])) == 1002)
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] {
            #expect(Self.serverCloseCode(WSWire.client(0x8, WSWire.closePayload(code))) == 1002, "code \(code)")
        }
        #expect(Self.serverCloseCode(WSWire.client(0x8, WSWire.closePayload(1000) + [0xCE, 0xBA, 0xE1, 0xBD])) == 1007)
        #expect(Self.serverCloseCode(WSWire.client(0x8, WSWire.closePayload(1000) + [0xFF])) == 1007)
    }

    @Test func locallyInitiatedClose() throws {
        var connection = Self.server()
        let closeFrame = try #require(WSWire.decode(connection.close(code: .goingAway, reason: "restart")))
        #expect(closeFrame.opcode == 0x8 && closeFrame.payload == WSWire.closePayload(1001, "restart"))
        #expect(connection.state == .closeSent)
        #expect(connection.close() == [], "a second close sends nothing")
        #expect(connection.send(text: "x") == [] && connection.ping() == [])
        // Data and pings after our close are ignored; the peer's close completes the handshake.
        let actions = connection.receive(
            WSWire.client(0x1, Array("ignored".utf8)) + WSWire.client(0x9, [1])
                + WSWire.client(0x8, WSWire.closePayload(1001)))
        #expect(actions == [.ping([1]), .closed(code: .goingAway, reason: "")])
        #expect(connection.state == .closed)
    }

    @Test func closingMidMessageSkipsTheRestOfIt() {
        var connection = Self.server()
        #expect(connection.receive(WSWire.client(0x1, Array("part".utf8), fin: false)) == [])
        _ = connection.close()
        let actions = connection.receive(
            WSWire.client(0x0, Array(" two".utf8), fin: false) + WSWire.client(0x0, [0xFF])
                + WSWire.client(0x8, WSWire.closePayload(1000)))
        #expect(actions == [.closed(code: .normalClosure, reason: "")])
    }

    @Test func protocolErrorAfterCloseSentWritesNothingMore() {
        var connection = Self.server()
        _ = connection.close()
        let actions = connection.receive(WSWire.server(0x1, [0x61]))
        #expect(actions == [.closed(code: .protocolError, reason: "unmasked client frame")])
    }

    @Test func closeReasonIsTruncatedOnACharacterBoundary() throws {
        var connection = Self.server()
        let reason = String(repeating: "é", count: 100)  // 200 bytes
        let frame = try #require(WSWire.decode(connection.close(code: .normalClosure, reason: reason)))
        #expect(frame.payload.count == 2 + 122)
        #expect(String(validating: frame.payload[2...], as: UTF8.self) == String(repeating: "é", count: 61))
        var other = Self.server()
        #expect(WSWire.decode(other.close(code: .noStatusReceived))?.payload == [], "1005 is never sent")
    }

    @Test func messageSizeLimit() {
        let limit = WebSocketOptions.defaultMaxMessageSize
        var atLimit = Self.server()
        #expect(atLimit.receive(WSWire.client(0x2, [UInt8](repeating: 1, count: limit))).messages.count == 1)
        // Rejected as soon as the header announces too much: no payload is sent here.
        let header = Array(WSWire.client(0x2, [UInt8](repeating: 1, count: limit + 1)).prefix(14))  // 2 + 8 + mask
        var early = Self.server()
        #expect(early.receive(header).closeCode == 1009)
        // A 64-bit length far beyond anything.
        var huge = Self.server()
        #expect(huge.receive([0x82, 0xFF, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]).closeCode == 1009)
        #expect(Self.serverCloseCode([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]) == 1002)
        // Fragments adding up to too much.
        var fragments = Self.server(maxMessageSize: 100)
        let parts =
            WSWire.client(0x1, [UInt8](repeating: 0x61, count: 60), fin: false)
            + WSWire.client(0x0, [UInt8](repeating: 0x61, count: 41))
        #expect(fragments.receive(parts).closeCode == 1009)
        // Control frames do not count against the message.
        var withPing = Self.server(maxMessageSize: 10)
        let ok = withPing.receive(
            WSWire.client(0x1, Array("12345".utf8), fin: false) + WSWire.client(0x9, [UInt8](repeating: 0, count: 100))
                + WSWire.client(0x0, Array("67890".utf8)))
        #expect(ok.messages == [.text("1234567890")])
    }

    @Test func oneMebibyteMessageWithRaisedLimit() {
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var client = WebSocketConnection(role: .client)
        let bytes = client.send(binary: payload)
        var server = Self.server(maxMessageSize: 1 << 20)
        // Delivered in socket-sized reads.
        var actions: [Action] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 65_536)
            actions += server.receive(Array(bytes[offset..<end]))
            offset = end
        }
        #expect(actions == [.message(.binary(payload))])
        var defaultLimit = Self.server()
        #expect(defaultLimit.receive(bytes).closeCode == 1009)
    }

    @Test func clientRoleEchoesCloseMasked() throws {
        var client = WebSocketConnection(role: .client)
        let actions = client.receive(WSWire.server(0x8, WSWire.closePayload(1001, "bye")))
        let reply = try #require(WSWire.decode(actions.first?.written ?? []))
        #expect(reply.masked && reply.payload == WSWire.closePayload(1001))
        #expect(actions.last == .closed(code: .goingAway, reason: "bye"))
    }
}
