import ParleyWire
import Testing

@Suite struct HTTPResponseParserTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func readsContentLengthAcrossReadsOfOneByte() throws {
        var parser = HTTPResponseParser()
        let text = bytes("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":\"bcd\"}")
        for byte in text.dropLast() { #expect(try parser.receive([byte]) == nil) }
        let response = try #require(try parser.receive([text.last!]))
        #expect(response.status == 201)
        #expect(response.head.status.reason == "Created")
        #expect(response.headers.first("content-type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"a\":\"bcd\"}")
        #expect(parser.leavesConnectionReusable)
    }

    @Test func dechunksReadsUntilEOFAndKnowsBodilessAnswers() throws {
        var chunked = HTTPResponseParser()
        let response = try #require(
            try chunked.receive(
                bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n")))
        #expect(response.body == bytes("abcde"))
        #expect(chunked.leavesConnectionReusable)
        var eof = HTTPResponseParser()
        #expect(try eof.receive(bytes("HTTP/1.1 200 OK\r\n\r\nhello")) == nil)
        #expect(try eof.finish().body == bytes("hello"))
        #expect(!eof.leavesConnectionReusable)
        var noContent = HTTPResponseParser()
        #expect(try noContent.receive(bytes("HTTP/1.1 204 No Content\r\n\r\n"))?.status == 204)
        var head = HTTPResponseParser(isHeadRequest: true)
        #expect(try head.receive(bytes("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"))?.body == [])
    }

    @Test func skipsInterimAnswersAndStopsAtAnUpgrade() throws {
        var parser = HTTPResponseParser()
        let response = try parser.receive(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        #expect(response?.status == 200)
        var upgrade = HTTPResponseParser.headOnly(limit: 1024)
        #expect(try upgrade.receive(bytes("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n") + [0x81, 0x00])?.status == 101)
        #expect(upgrade.takeUnparsedBytes() == [0x81, 0x00])
        #expect(!upgrade.leavesConnectionReusable)
        var refusal = HTTPResponseParser.headOnly(limit: 1024)
        #expect(try refusal.receive(bytes("HTTP/1.1 401 Unauthorized\r\nContent-Length: 5\r\n\r\n"))?.status == 401)
    }

    @Test func aConnectionIsReusableOnlyWhenTheAnswerEndsItCleanly() throws {
        for text in [
            "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nX"
        ] {
            var parser = HTTPResponseParser()
            #expect(try parser.receive(bytes(text)) != nil)
            #expect(!parser.leavesConnectionReusable, "\(text)")
        }
    }

    @Test(arguments: [
        ("HTTP/2 OK\r\n\r\n", HTTPResponseParseError.Code.malformedStatusLine),
        ("HTTP/1.1 20 OK\r\n\r\n", .malformedStatusLine),
        ("HTTP/1.1 050 OK\r\n\r\n", .malformedStatusLine),
        ("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", .malformedHeader),
        ("HTTP/1.1 200 OK\r\nA: 1\r\n  folded\r\n\r\n", .malformedHeader),
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", .invalidContentLength),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .invalidContentLength),
        ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", .invalidContentLength),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", .bodyTooLarge),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .malformedChunk),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n", .malformedChunk),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY", .malformedChunk),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n", .bodyTooLarge)
    ])
    func rejects(_ text: String, _ code: HTTPResponseParseError.Code) {
        var parser = HTTPResponseParser(bodyLimit: 4)
        do {
            _ = try parser.receive(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == code, "\(text)")
        }
    }

    @Test func boundsTheHeadLinesAndAnEndlessBodyAndReportsTruncation() {
        var head = HTTPResponseParser(headLimit: 100)
        #expect(throws: HTTPResponseParseError.self) {
            _ = try head.receive(bytes("HTTP/1.1 200 OK\r\n" + String(repeating: "a", count: 200)))
        }
        var chunkLine = HTTPResponseParser(headLimit: 100)
        #expect(throws: HTTPResponseParseError.self) {
            _ = try chunkLine.receive(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1" + String(repeating: " ", count: 200)))
        }
        var endless = HTTPResponseParser(bodyLimit: 4)
        #expect(throws: HTTPResponseParseError.self) { _ = try endless.receive(bytes("HTTP/1.1 200 OK\r\n\r\nhello")) }
        var truncated = HTTPResponseParser()
        #expect(throws: HTTPResponseParseError.self) {
            _ = try truncated.receive(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"))
            _ = try truncated.finish()
        }
    }
}
