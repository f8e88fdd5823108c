import Testing

@testable import ParleyWire

/// A message must end: endless fragments (empty ones cost nothing against the size limit)
/// close the connection with 1008 instead of keeping it busy forever.
@Suite struct WebSocketFragmentLimitTests {
    static func server(
        deflate: WebSocketDeflateParameters? = nil, fragments: Int = WebSocketOptions.defaultMaxFragmentsPerMessage,
        empty: Int = WebSocketOptions.defaultMaxEmptyFragmentsPerMessage
    ) -> WebSocketConnection {
        WebSocketConnection(
            role: .server,
            options: WebSocketOptions(
                deflate: deflate, maxFragmentsPerMessage: fragments,
                maxEmptyFragmentsPerMessage: empty))
    }

    /// Feeds `frame` until the connection closes or `attempts` run out; returns the close
    /// code and how many frames it took.
    static func feedUntilClosed(_ connection: inout WebSocketConnection, _ frame: [UInt8], attempts: Int) -> (UInt16?, Int) {
        for sent in 1...attempts {
            let actions = connection.receive(frame)
            if let code = actions.closeCode { return (code, sent) }
        }
        return (nil, attempts)
    }

    @Test func endlessEmptyContinuationsAreClosedWith1008() {
        var connection = Self.server()
        #expect(connection.receive(WSWire.client(0x1, Array("a".utf8), fin: false)).isEmpty)
        let (code, frames) = Self.feedUntilClosed(&connection, WSWire.client(0x0, [], fin: false), attempts: 100_000)
        #expect(code == 1008)
        #expect(frames == WebSocketOptions.defaultMaxEmptyFragmentsPerMessage + 1)
        #expect(connection.state == .closed)
    }

    @Test func theCloseFrameSaysWhy() throws {
        var connection = Self.server(empty: 2)
        var actions = connection.receive(WSWire.client(0x2, [1], fin: false))
        for _ in 0..<3 { actions += connection.receive(WSWire.client(0x0, [], fin: false)) }
        let written = try #require(actions.compactMap(\.written).last)
        let frame = try #require(WSWire.decode(written))
        #expect(frame.opcode == 0x8)
        #expect(Array(frame.payload.prefix(2)) == [0x03, 0xF0])  // 1008
        #expect(actions.closeCode == 1008)
    }

    @Test func emptyContinuationsOfACompressedMessageAreClosedToo() {
        var connection = Self.server(deflate: WebSocketDeflateParameters())
        #expect(connection.receive(WSWire.client(0x1, [], fin: false, rsv: 0b100)).isEmpty)
        let (code, _) = Self.feedUntilClosed(&connection, WSWire.client(0x0, [], fin: false), attempts: 100_000)
        #expect(code == 1008)
    }

    @Test func tooManyNonEmptyFragmentsAreClosedWith1008() {
        var connection = Self.server(fragments: 8)
        var bytes = WSWire.client(0x2, [0], fin: false)
        for i in 1..<8 { bytes += WSWire.client(0x0, [UInt8(i)], fin: false) }
        #expect(connection.receive(bytes).isEmpty)
        #expect(connection.receive(WSWire.client(0x0, [8])).closeCode == 1008)
    }

    @Test func messagesWithinTheBoundsArrive() {
        var connection = Self.server(fragments: 8, empty: 2)
        // Eight frames, two of them empty and not final, and an empty final one.
        var bytes = WSWire.client(0x1, Array("a".utf8), fin: false)
        bytes += WSWire.client(0x0, [], fin: false) + WSWire.client(0x0, [], fin: false)
        for letter in "bcde" { bytes += WSWire.client(0x0, Array(String(letter).utf8), fin: false) }
        bytes += WSWire.client(0x0, [])
        #expect(connection.receive(bytes).messages == [.text("abcde")])
        // The count starts over with every message.
        #expect(connection.receive(bytes).messages == [.text("abcde")])
        // Control frames between fragments do not count.
        var pings = WSWire.client(0x2, [1], fin: false)
        for _ in 0..<20 { pings += WSWire.client(0x9, []) }
        pings += WSWire.client(0x0, [2])
        #expect(connection.receive(pings).messages == [.binary([1, 2])])
        #expect(connection.state == .open)
    }
}
