import Testing

@testable import ParleyWire

@Suite struct WebSocketFrameTests {
    static let hello = Array("Hello".utf8)
    static let rfcKey = WebSocketMasking.key(0x37, 0xFA, 0x21, 0x3D)

    @Test func rfc6455Examples() {
        // RFC 6455 §5.7.
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).encoded() == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(
            WebSocketFrame(opcode: .text, payload: Self.hello).encoded(maskKey: Self.rfcKey)
                == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)).encoded() == [0x01, 0x03, 0x48, 0x65, 0x6C])
        #expect(WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)).encoded() == [0x80, 0x02, 0x6C, 0x6F])
        #expect(WebSocketFrame(opcode: .ping, payload: Self.hello).encoded() == [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
    }

    @Test func lengthEncodings() {
        let medium = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 256)).encoded()
        #expect(Array(medium.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(medium.count == 4 + 256)
        let edge = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 125)).encoded()
        #expect(Array(edge.prefix(2)) == [0x82, 125])
        let large = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 65536)).encoded()
        #expect(Array(large.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        let max16 = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 65535)).encoded()
        #expect(Array(max16.prefix(4)) == [0x82, 0x7E, 0xFF, 0xFF])
        let maskedLarge = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 70000)).encoded(maskKey: 1)
        #expect(maskedLarge[1] == 0xFF && maskedLarge.count == 14 + 70000)
    }

    @Test func headerParsing() {
        let bytes: [UInt8] = [0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 4]
        bytes.withUnsafeBytes { raw in
            for cut in 0..<bytes.count {
                #expect(WebSocketFrameHeader.parse(UnsafeRawBufferPointer(rebasing: raw[..<cut])) == .incomplete)
            }
            guard case .header(let header, let size) = WebSocketFrameHeader.parse(raw) else {
                Issue.record("no header"); return
            }
            #expect(size == 14 && header.payloadLength == 65536 && header.opcode == .binary && header.fin)
            #expect(header.maskKey == WebSocketMasking.key(1, 2, 3, 4))
        }
        let tooLong: [UInt8] = [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0]
        #expect(tooLong.withUnsafeBytes { WebSocketFrameHeader.parse($0) } == .invalidLength)
    }

    @Test func wordMaskingMatchesBytewiseDefinition() {
        let key: [UInt8] = [0xA1, 0x02, 0xF3, 0x64]
        let packed = WebSocketMasking.key(key[0], key[1], key[2], key[3])
        for length in 0...41 {
            for phase in 0..<4 {
                let original = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
                var buffer = original
                let next = buffer.withUnsafeMutableBytes { WebSocketMasking.apply(key: packed, phase: phase, to: $0) }
                let expected = original.enumerated().map { $0.element ^ key[($0.offset + phase) % 4] }
                #expect(buffer == expected, "length \(length) phase \(phase)")
                #expect(next == (phase + length) % 4)
            }
        }
    }

    @Test func broadcastFrameEqualsConnectionSend() {
        var server = WebSocketConnection(role: .server)
        let text = "héllo, everyone"
        #expect(WebSocketFrame.serverText(text) == server.send(text: text))
        #expect(WebSocketFrame.serverBinary([1, 2, 3]) == server.send(binary: [1, 2, 3]))
        // A compressing connection can still receive the shared uncompressed frame.
        var client = WebSocketConnection(role: .client, options: WebSocketOptions(deflate: WebSocketDeflateParameters()))
        #expect(client.receive(WebSocketFrame.serverText(text)).messages == [.text(text)])
    }

    @Test func clientFramesAreMaskedWithFreshKeys() throws {
        var client = WebSocketConnection(role: .client)
        var keys = Set<[UInt8]>()
        var server = WebSocketConnection(role: .server)
        for index in 0..<100 {
            let bytes = client.send(text: "message \(index)")
            let frame = try #require(WSWire.decode(bytes))
            #expect(frame.masked)
            #expect(frame.payload == Array("message \(index)".utf8))
            keys.insert(frame.mask)
            #expect(server.receive(bytes).messages == [.text("message \(index)")])
        }
        #expect(keys.count > 90)  // 100 random 32-bit keys: collisions are vanishingly rare
        let ping = try #require(WSWire.decode(client.ping([1, 2])))
        #expect(ping.masked && ping.opcode == 0x9 && ping.payload == [1, 2])
        let serverFrame = try #require(WSWire.decode(server.send(text: "x")))
        #expect(!serverFrame.masked)
    }

    @Test func utf8ValidatorAcceptsAndRejects() {
        func valid(_ bytes: [UInt8]) -> Bool {
            var validator = WebSocketUTF8Validator()
            return validator.consume(bytes) && validator.isComplete
        }
        #expect(valid(Array("plain ascii that is longer than eight bytes".utf8)))
        #expect(valid(Array("κόσμε €𝄞 ✓".utf8)))
        #expect(valid([0xF4, 0x8F, 0xBF, 0xBF]))  // U+10FFFF
        #expect(valid([0xED, 0x9F, 0xBF]))  // U+D7FF
        #expect(!valid([0xC0, 0xAF]))  // overlong
        #expect(!valid([0xE0, 0x80, 0xAF]))  // overlong
        #expect(!valid([0xF0, 0x80, 0x80, 0xAF]))  // overlong
        #expect(!valid([0xED, 0xA0, 0x80]))  // surrogate
        #expect(!valid([0xF4, 0x90, 0x80, 0x80]))  // above U+10FFFF
        #expect(!valid([0xF5, 0x80, 0x80, 0x80]))
        #expect(!valid([0x80]))
        #expect(!valid([0xFF]))
        #expect(!valid([0xE2, 0x82]))  // truncated
        // Split anywhere, the verdict is the same.
        let text = Array("aé€𝄞z".utf8)
        for cut in 0...text.count {
            var validator = WebSocketUTF8Validator()
            #expect(validator.consume(Array(text[..<cut])) && validator.consume(Array(text[cut...])) && validator.isComplete)
        }
    }

    @Test func closeCodeNamesAndWireValidity() {
        let named: [WebSocketCloseCode] = [
            .normalClosure, .goingAway, .protocolError, .unsupportedData,
            .invalidPayload, .policyViolation, .messageTooBig, .internalError
        ]
        #expect(named.map(\.rawValue) == [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1011])
        #expect(
            named.map(\.name) == [
                "normal_closure", "going_away", "protocol_error", "unsupported_data",
                "invalid_payload", "policy_violation", "message_too_big", "internal_error"
            ])
        #expect(named.allSatisfy { $0.isValidOnWire })
        for invalid: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] {
            #expect(!WebSocketCloseCode(invalid).isValidOnWire, "\(invalid)")
        }
        for valid: UInt16 in [1010, 1012, 1013, 1014, 3000, 3999, 4000, 4999] {
            #expect(WebSocketCloseCode(valid).isValidOnWire, "\(valid)")
        }
    }
}
