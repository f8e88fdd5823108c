import Testing

@testable import ParleyWire

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite struct HTTPResponseWriterTests {
    @Test func fullResponseHasExactBytes() {
        let head = HTTPResponseHead(status: .ok, headers: ["Content-Type": "text/plain"])
        let out = HTTPResponseWriter.response(head, body: Array("hello".utf8))
        #expect(text(out) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello")
    }

    @Test func emptyBodyStillGetsContentLengthZero() {
        let out = HTTPResponseWriter.response(HTTPResponseHead(status: .notFound))
        #expect(text(out) == "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func closingConnectionAddsConnectionClose() {
        let head = HTTPResponseHead(status: .badRequest, headers: ["Connection": "keep-alive"])
        let out = HTTPResponseWriter.response(head, body: Array("no".utf8), keepAlive: false)
        #expect(text(out) == "HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno")
    }

    @Test func http10ClientKeptAliveGetsKeepAliveHeader() {
        let out = HTTPResponseWriter.response(HTTPResponseHead(status: .ok), body: [UInt8](), requestVersion: .http1_0)
        #expect(text(out) == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test func headResponseKeepsLengthButOmitsBody() {
        let out = HTTPResponseWriter.response(
            HTTPResponseHead(status: .ok), body: Array("0123456789".utf8), headRequest: true)
        #expect(text(out) == "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
    }

    @Test func writerOwnsFramingHeaders() {
        let head = HTTPResponseHead(
            status: .ok, headers: ["Content-Length": "999", "Transfer-Encoding": "chunked", "X": "1"])
        let out = HTTPResponseWriter.response(head, body: Array("ab".utf8))
        #expect(text(out) == "HTTP/1.1 200 OK\r\nX: 1\r\nContent-Length: 2\r\n\r\nab")
    }

    @Test func bodylessStatusesGetNoLengthAndNoBody() {
        #expect(
            text(HTTPResponseWriter.response(HTTPResponseHead(status: .noContent), body: Array("x".utf8)))
                == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(
            text(HTTPResponseWriter.response(HTTPResponseHead(status: .notModified)))
                == "HTTP/1.1 304 Not Modified\r\n\r\n")
        let upgrade = HTTPResponseHead(
            status: .switchingProtocols, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        #expect(
            text(HTTPResponseWriter.response(upgrade))
                == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
    }

    @Test func continueResponseIsExact() {
        #expect(text(HTTPResponseWriter.continueResponse) == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(
            text(HTTPResponseWriter.interim(HTTPStatus(103), headers: ["Link": "</a>; rel=preload"]))
                == "HTTP/1.1 103 Status 103\r\nLink: </a>; rel=preload\r\n\r\n")
    }

    @Test func chunkedStreamHasExactBytes() {
        let head = HTTPResponseWriter.chunkedHead(
            HTTPResponseHead(status: .ok, headers: ["Content-Type": "text/event-stream"]))
        #expect(
            text(head) == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(text(HTTPResponseWriter.chunk(Array("hello".utf8))) == "5\r\nhello\r\n")
        #expect(
            text(HTTPResponseWriter.chunk([UInt8](repeating: 0x61, count: 300))) == "12c\r\n"
                + String(repeating: "a", count: 300) + "\r\n")
        #expect(HTTPResponseWriter.chunk([UInt8]()) == [])
        #expect(text(HTTPResponseWriter.finalChunk()) == "0\r\n\r\n")
        #expect(text(HTTPResponseWriter.finalChunk(trailers: ["Checksum": "abc"])) == "0\r\nChecksum: abc\r\n\r\n")
    }

    @Test func chunkedHeadForClosingConnection() {
        let head = HTTPResponseWriter.chunkedHead(HTTPResponseHead(status: .ok), keepAlive: false)
        #expect(text(head) == "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    }

    @Test func headerInjectionIsNeutralised() {
        let head = HTTPResponseHead(
            status: HTTPStatus(200, "OK\r\nX-Evil: 1"),
            headers: ["Location": "/a\r\nSet-Cookie: x=1", "Bad Name": "v", "": "v"])
        let out = text(HTTPResponseWriter.response(head))
        #expect(out == "HTTP/1.1 200 OK  X-Evil: 1\r\nLocation: /a  Set-Cookie: x=1\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func writeIntoAppendsToExistingBuffer() {
        var out = Array("prefix".utf8)
        HTTPResponseWriter.writeResponse(HTTPResponseHead(status: .ok), body: Array("x".utf8), into: &out)
        HTTPResponseWriter.writeChunk(Array("yz".utf8), into: &out)
        #expect(text(out) == "prefixHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx2\r\nyz\r\n")
    }

    @Test func writerOutputParsesBackThroughTheRequestGrammar() {
        // Chunks the writer produces are read back by the parser's chunk decoder unchanged.
        var stream = Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let pieces = ["a", String(repeating: "b", count: 4097), "c"]
        for piece in pieces { stream += HTTPResponseWriter.chunk(Array(piece.utf8)) }
        stream += HTTPResponseWriter.finalChunk(trailers: ["T": "v"])
        let events = HTTPTestSupport.events(stream)
        #expect(HTTPTestSupport.bodyText(events) == pieces.joined())
        #expect(events.last == .end(trailers: ["T": "v"]))
    }

    @Test func decimalAndHexEncoders() {
        var out: [UInt8] = []
        for n in [0, 7, 10, 1234567890, Int.max] { HTTPSyntax.appendDecimal(n, to: &out); out.append(0x20) }
        for n in [0, 15, 16, 255, 0xABCDEF] { HTTPSyntax.appendHex(n, to: &out); out.append(0x20) }
        #expect(text(out) == "0 7 10 1234567890 \(Int.max) 0 f 10 ff abcdef ")
    }
}
