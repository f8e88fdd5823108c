import Testing

@testable import ParleyWire

private typealias T = HTTPTestSupport

@Suite struct HTTPRequestParserTests {
    @Test func simpleGetYieldsHeadThenEnd() throws {
        let events = T.events("GET /healthz?x=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n")
        #expect(events.count == 2)
        let head = try #require(T.heads(events).first)
        #expect(head.method == .GET)
        #expect(head.target == "/healthz?x=1")
        #expect(head.version == .http1_1)
        #expect(head.headers.first("host") == "example.com")
        #expect(head.headers.first("ACCEPT") == "*/*")
        #expect(events.last == .end(trailers: HTTPHeaders()))
    }

    @Test func needsMoreInputUntilTheHeadIsComplete() {
        var parser = HTTPRequestParser()
        parser.receive(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8))
        #expect(parser.nextEvent() == nil)
        parser.receive(Array("\r\n".utf8))
        #expect(T.heads(T.drain(&parser)).count == 1)
    }

    @Test func headerValuesAreTrimmedAndRepeatsKeptInOrder() throws {
        let events = T.events("GET / HTTP/1.1\r\nHost: a\r\nX-Tag: \t one \t\r\nx-tag:two\r\nX-Empty:\r\n\r\n")
        let head = try #require(T.heads(events).first)
        #expect(head.headers.values(for: "X-TAG") == ["one", "two"])
        #expect(head.headers.first("x-empty") == "")
        #expect(head.headers.fields.map(\.name) == ["Host", "X-Tag", "x-tag", "X-Empty"])
    }

    @Test func contentLengthBodyIsDelivered() {
        let events = T.events("POST /m HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world")
        #expect(T.bodyText(events) == "hello world")
        #expect(events.last == .end(trailers: HTTPHeaders()))
    }

    @Test func bodyArrivingInPiecesComesOutInPieces() {
        var parser = HTTPRequestParser()
        parser.receive(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\n\r\nabc".utf8))
        var events = T.drain(&parser)
        #expect(events.count == 2)
        #expect(events.last == .body(ArraySlice("abc".utf8)))
        parser.receive(Array("def".utf8))
        events = T.drain(&parser)
        #expect(events == [.body(ArraySlice("def".utf8)), .end(trailers: HTTPHeaders())])
    }

    @Test func bodySlicesAreZeroBased() throws {
        let events = T.events("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok")
        guard case .body(let piece)? = events.dropLast().last else { Issue.record("no body"); return }
        #expect(piece.startIndex == 0)
        #expect(piece[0] == UInt8(ascii: "o"))
    }

    @Test func zeroContentLengthMeansEmptyBody() {
        let events = T.events("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
        #expect(events.count == 2)
        #expect(events.last == .end(trailers: HTTPHeaders()))
    }

    @Test func requestWithoutLengthHasNoBodyAndNextRequestFollows() {
        let events = T.events("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(T.heads(events).map(\.target) == ["/a", "/b"])
        #expect(T.bodyText(events) == "")
    }

    @Test func pipelinedRequestsInOneBufferAreParsedInOrder() {
        let text =
            "POST /1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\none"
            + "POST /2 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n"
            + "GET /3 HTTP/1.1\r\nHost: a\r\n\r\n"
        let events = T.events(text)
        #expect(T.heads(events).map(\.target) == ["/1", "/2", "/3"])
        let ends = events.filter { if case .end = $0 { true } else { false } }
        #expect(ends.count == 3)
        #expect(T.bodyText(events) == "onetwo")
    }

    @Test func byteByByteFeedingMatchesOneShot() {
        let inputs = [
            "GET /a?b=c HTTP/1.1\r\nHost: h\r\nX: y\r\n\r\nPOST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello",
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nDigest: x\r\n\r\n",
            "\r\n\nGET / HTTP/1.0\n\n",
            "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n"
        ]
        for input in inputs {
            let bytes = Array(input.utf8)
            #expect(T.eventsByteByByte(bytes) == T.mergingBodies(T.events(bytes)), "\(input.debugDescription)")
        }
    }

    @Test func everySplitPointGivesTheSameEvents() {
        let bytes = Array(
            "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwiki\r\n0\r\nT: 1\r\n\r\nGET /y HTTP/1.1\r\nHost: h\r\n\r\n"
                .utf8)
        let expected = T.mergingBodies(T.events(bytes))
        for split in 0...bytes.count {
            var parser = HTTPRequestParser()
            parser.receive(Array(bytes[..<split]))
            var events = T.drain(&parser)
            parser.receive(Array(bytes[split...]))
            events += T.drain(&parser)
            #expect(T.mergingBodies(events) == expected, "split at \(split)")
        }
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() {
        let text =
            "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value;flag\r\nhello\r\n"
            + "6 ; q=\"x y\"\r\n world\r\n"
            + "0\r\nChecksum: abc\r\nX-Trailer: 1\r\n\r\n"
        let events = T.events(text)
        #expect(T.bodyText(events) == "hello world")
        #expect(events.last == .end(trailers: ["Checksum": "abc", "X-Trailer": "1"]))
    }

    @Test func chunkSizeIsHexAndCaseInsensitive() {
        let events = T.events(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\na\r\n0123456789\r\n00000A\r\nabcdefghij\r\n0\r\n\r\n"
        )
        #expect(T.bodyText(events) == "0123456789abcdefghij")
    }

    @Test func leadingEmptyLinesAreSkipped() {
        let events = T.events("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(T.heads(events).count == 1)
    }

    @Test func bareLFIsAcceptedInTheHead() throws {
        let events = T.events("GET /lf HTTP/1.1\nHost: a\nX: 1\n\n")
        let head = try #require(T.heads(events).first)
        #expect(head.headers.first("x") == "1")
        #expect(events.last == .end(trailers: HTTPHeaders()))
    }

    @Test func bareCRIsRejected() {
        #expect(T.error("GET / HTTP/1.1\r\nHost: a\rX: 1\r\n\r\n")?.code == "malformed_header")
        #expect(T.error("GET / HTTP/1.1\r\r\nHost: a\r\n\r\n")?.code == "malformed_request_line")
    }

    @Test func unknownMethodsAreTokensAndPassThrough() throws {
        let head = try #require(T.heads(T.events("PROPFIND /d HTTP/1.1\r\nHost: a\r\n\r\n")).first)
        #expect(head.method == HTTPMethod(rawValue: "PROPFIND"))
    }

    @Test func http10IsAcceptedWithoutHostAndHigherMinorReadsAsHTTP11() throws {
        let old = try #require(T.heads(T.events("GET / HTTP/1.0\r\n\r\n")).first)
        #expect(old.version == .http1_0)
        let newer = try #require(T.heads(T.events("GET / HTTP/1.7\r\nHost: a\r\n\r\n")).first)
        #expect(newer.version == .http1_1)
    }

    @Test func errorIsFinal() {
        var parser = HTTPRequestParser()
        parser.receive(Array("BROKEN\r\n".utf8))
        #expect(parser.nextEvent()?.isError == true)
        #expect(parser.nextEvent() == nil)
        parser.receive(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(parser.nextEvent() == nil)
        #expect(parser.isFinished)
    }

    @Test func maxBodySizeResetsForEachRequest() {
        var parser = HTTPRequestParser(limits: .init(maxBodySize: 10))
        parser.receive(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n".utf8))
        #expect(parser.nextEvent()?.isHead == true)
        parser.maxBodySize = 100
        #expect(parser.nextEvent() == nil)
        parser.receive(Array(repeating: UInt8(ascii: "x"), count: 20))
        #expect(parser.nextEvent()?.isBody == true)
        #expect(parser.nextEvent() == .end(trailers: HTTPHeaders()))
        #expect(parser.maxBodySize == 10)
        parser.receive(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n".utf8))
        #expect(parser.nextEvent()?.isHead == true)
        #expect(parser.nextEvent()?.errorCode == "body_too_large")
    }

    @Test func bufferIsCompactedAcrossManyRequests() {
        var parser = HTTPRequestParser()
        let request = Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nbody".utf8)
        var heads = 0
        for _ in 0..<2000 {
            parser.receive(Array(request[..<10]))
            heads += T.heads(T.drain(&parser)).count
            parser.receive(Array(request[10...]))
            heads += T.heads(T.drain(&parser)).count
        }
        #expect(heads == 2000)
        #expect(parser.bufferedByteCount == 0)
    }

    // MARK: Keep-alive, Expect, Upgrade

    @Test func keepAliveRulesFor10And11() throws {
        func head(_ text: String) throws -> HTTPRequestHead { try #require(T.heads(T.events(text)).first) }
        #expect(try head("GET / HTTP/1.1\r\nHost: a\r\n\r\n").keepAlive)
        #expect(try !head("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").keepAlive)
        #expect(try !head("GET / HTTP/1.1\r\nHost: a\r\nConnection: Keep-Alive, CLOSE\r\n\r\n").keepAlive)
        #expect(try !head("GET / HTTP/1.0\r\n\r\n").keepAlive)
        #expect(try head("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keepAlive)
    }

    @Test func expectContinueIsDetected() throws {
        let head = try #require(
            T.heads(T.events("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\n")).first)
        #expect(head.expectsContinue)
        #expect(head.expectation == .continue)
        let old = try #require(
            T.heads(T.events("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")).first)
        #expect(!old.expectsContinue)
        let odd = try #require(T.heads(T.events("POST / HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\n\r\n")).first)
        #expect(odd.expectation == .unsupported("teapot"))
        let none = try #require(T.heads(T.events("GET / HTTP/1.1\r\nHost: a\r\n\r\n")).first)
        #expect(none.expectation == .none)
    }

    @Test func expectContinueFlowRejectsOversizedBodyBeforeItIsSent() {
        var parser = HTTPRequestParser()
        parser.receive(Array("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n".utf8))
        guard case .head(let head)? = parser.nextEvent() else { Issue.record("no head"); return }
        #expect(head.expectsContinue)
        parser.maxBodySize = 4096
        let next = parser.nextEvent()
        #expect(next?.errorCode == "body_too_large")
        #expect(next?.errorStatus == 413)
    }

    @Test func upgradeHeadHandsOffTheRemainingBytes() throws {
        let handshake =
            "GET /app/key HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let frame: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 0x69, 0x67, 0x6F, 0x68, 0x6E, 0x0D, 0x0A]
        var parser = HTTPRequestParser()
        parser.receive(Array(handshake.utf8) + frame)
        guard case .head(let head)? = parser.nextEvent() else { Issue.record("no head"); return }
        #expect(head.isUpgrade)
        #expect(head.upgradeProtocols == ["websocket"])
        #expect(parser.takeUnparsedBytes() == frame)
        #expect(parser.nextEvent() == nil)
        parser.receive(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(parser.nextEvent() == nil)
    }

    @Test func upgradeBytesCanAlsoBeTakenAfterEnd() {
        var parser = HTTPRequestParser()
        parser.receive(Array("GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\nXYZ".utf8))
        #expect(parser.nextEvent()?.isHead == true)
        #expect(parser.nextEvent() == .end(trailers: HTTPHeaders()))
        #expect(parser.takeUnparsedBytes() == Array("XYZ".utf8))
    }

    @Test func plainRequestIsNotAnUpgrade() throws {
        let head = try #require(T.heads(T.events("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n")).first)
        #expect(!head.isUpgrade)
    }

    @Test func headHelpersReportLengthAndChunking() throws {
        let fixed = try #require(T.heads(T.events("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\n\r\n")).first)
        #expect(fixed.contentLength == 7)
        #expect(!fixed.isChunked)
        let chunked = try #require(
            T.heads(T.events("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")).first)
        #expect(chunked.contentLength == nil)
        #expect(chunked.isChunked)
    }
}

extension HTTPRequestParser.Event {
    var isError: Bool { if case .error = self { true } else { false } }
    var isHead: Bool { if case .head = self { true } else { false } }
    var isBody: Bool { if case .body = self { true } else { false } }
    var errorCode: String? { if case .error(let e) = self { e.code } else { nil } }
    var errorStatus: Int? { if case .error(let e) = self { e.status.code } else { nil } }
}
