import ParleyWire
import Testing

@testable import ParleyNet

/// The drivers over an ``EmbeddedChannel``: bytes in, bytes out, time moved by hand, no socket.
@Suite struct EmbeddedDriverTests {
    /// What a driver reported, for the assertions.
    final class Record {
        var closes: [(code: WebSocketCloseCode, reason: String)] = []
        var messages: [WebSocketMessage] = []
        var outcomes: [HTTPClientExchange.Outcome] = []
        var released = 0
    }

    private func serverSocket(on channel: EmbeddedChannel, _ record: Record, pingInterval: Duration? = nil) -> WebSocket {
        let socket = WebSocket(
            connection: channel, role: .server, options: WebSocketOptions(), subprotocol: nil,
            settings: .init(
                pingInterval: pingInterval, overflowCloseCode: WebSocketCloseCode(4100),
                closeTimeout: .seconds(5)))
        socket.onClose = { _, code, reason in record.closes.append((code, reason)) }
        socket.onMessage = { _, message in record.messages.append(message) }
        channel.driver = socket
        socket.startHeartbeat()
        return socket
    }

    /// A frame as a client sends it (masked).
    private func clientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        payload.withUnsafeBytes { WebSocketFrame.encode(opcode: opcode, payload: $0, maskKey: 0x1234_5678, into: &out) }
        return out
    }

    private func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }

    @Test func aCloseThisEndStartsEndsWhenThePeerAnswers() throws {
        let channel = try EmbeddedChannel()
        let record = Record()
        let socket = serverSocket(on: channel, record)
        socket.close(code: .normalClosure, reason: "bye")
        #expect(channel.readOutbound() == [0x88, 5] + closePayload(1000, "bye"))
        #expect(channel.isOpen && record.closes.isEmpty)
        channel.feed(clientFrame(.close, closePayload(1000)))
        #expect(record.closes.map(\.code) == [.normalClosure])
        #expect(channel.closedGracefully)
        #expect(channel.readOutbound().isEmpty)
    }

    @Test func aCloseThePeerNeverAnswersEndsAtTheCloseTimeout() throws {
        let channel = try EmbeddedChannel()
        let record = Record()
        let socket = serverSocket(on: channel, record)
        socket.close(code: .goingAway, reason: "")
        channel.advance(by: .seconds(4))
        #expect(channel.isOpen && record.closes.isEmpty)
        channel.advance(by: .seconds(1))
        #expect(record.closes.map(\.code) == [.goingAway])
        #expect(channel.isClosed)
    }

    @Test func aCloseThePeerStartsIsAnsweredAndReportedOnce() throws {
        let channel = try EmbeddedChannel()
        let record = Record()
        _ = serverSocket(on: channel, record)
        // A message and the close in one read, the close split over two reads.
        let close = clientFrame(.close, closePayload(1001, "away"))
        channel.feed(clientFrame(.text, Array("hi".utf8)) + close.prefix(3))
        channel.feed(Array(close.dropFirst(3)))
        #expect(record.messages == [.text("hi")])
        #expect(channel.readOutbound() == [0x88, 2] + closePayload(1001))
        #expect(record.closes.map(\.code) == [.goingAway])
        #expect(channel.isClosed)
    }

    @Test func aSilentPeerIsPingedThenDropped() throws {
        let channel = try EmbeddedChannel()
        let record = Record()
        _ = serverSocket(on: channel, record, pingInterval: .seconds(10))
        channel.advance(by: .seconds(10))
        #expect(channel.readOutbound() == [0x89, 0])
        channel.advance(by: .seconds(10))
        #expect(record.closes.map(\.code) == [.abnormalClosure])
        #expect(channel.closeError?.code == .timedOut)
    }

    private func exchange(
        on channel: EmbeddedChannel, _ record: Record, request: [UInt8] = Array("GET / HTTP/1.1\r\n\r\n".utf8)
    ) -> HTTPClientExchange {
        let exchange = HTTPClientExchange(
            parser: HTTPResponseParser(), bodyCount: 0, progress: nil,
            release: { record.released += 1 }
        ) { record.outcomes.append($0) }
        channel.driver = exchange
        exchange.start(channel, request)
        return exchange
    }

    @Test func anExchangeReadsAResponseSplitAcrossReadsAndParksTheConnection() throws {
        let channel = try EmbeddedChannel()
        let record = Record()
        _ = exchange(on: channel, record)
        #expect(channel.readOutbound() == Array("GET / HTTP/1.1\r\n\r\n".utf8))
        channel.feed("HTTP/1.1 200 OK\r\nContent-Le")
        channel.feed("ngth: 5\r\n\r\nhel")
        #expect(record.outcomes.isEmpty)
        channel.feed("lo")
        let response = try #require(try record.outcomes.first?.result.get())
        #expect(response.status == 200 && response.body == Array("hello".utf8))
        #expect(record.released == 1)
        #expect(channel.isOpen)
    }

    @Test func anExchangeWhoseServerClosesOrSendsExtraBytesIsNotParked() throws {
        for answer in [
            "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n"
        ] {
            let channel = try EmbeddedChannel()
            let record = Record()
            _ = exchange(on: channel, record)
            _ = channel.readOutbound()
            channel.feed(answer)
            #expect((try? record.outcomes.first?.result.get())?.status == 200)
            #expect(record.released == 0)
            #expect(channel.isClosed)
        }
    }

    @Test func anExchangeTimesOutOnTheManualClock() throws {
        let channel = try EmbeddedChannel()
        channel.idleTimeout = .seconds(30)
        let record = Record()
        _ = exchange(on: channel, record)
        channel.advance(by: .seconds(29))
        channel.feed("HTTP/1.1 200 OK\r\n")
        channel.advance(by: .seconds(29))
        #expect(record.outcomes.isEmpty)
        channel.advance(by: .seconds(1))
        if case .failure(let error)? = record.outcomes.first?.result {
            #expect(error.code == .timedOut)
        } else {
            Issue.record("no time-out: \(record.outcomes.count) outcomes")
        }
        #expect(record.outcomes.first?.sawResponseBytes == true)
        #expect(channel.closeError != nil)
    }

    @Test func aCancelledExchangeAbortsItsConnectionAndIgnoresTheRest() throws {
        let channel = try EmbeddedChannel()
        let record = Record()
        let exchange = exchange(on: channel, record)
        channel.feed("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhe")
        exchange.cancel()
        channel.feed("llo")
        #expect(record.outcomes.count == 1)
        if case .failure(let error)? = record.outcomes.first?.result {
            #expect(error.code == .cancelled)
        } else {
            Issue.record("not cancelled")
        }
        #expect(record.released == 0)
        #expect(channel.closeError != nil)
    }
}
