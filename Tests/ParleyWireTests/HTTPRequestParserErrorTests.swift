import Testing

@testable import ParleyWire

private typealias T = HTTPTestSupport

/// Every limit and every error answer of the request parser, including smuggling attempts.
@Suite struct HTTPRequestParserErrorTests {
    private func expectError(
        _ text: String, _ code: String, _ status: Int,
        limits: HTTPRequestParser.Limits = .init(), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = T.error(text, limits: limits)
        #expect(error?.code == code, "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(error?.status.code == status, "\(text.debugDescription)", sourceLocation: sourceLocation)
        // The same answer must come however the bytes are split.
        let byByte = T.error(T.eventsByteByByte(Array(text.utf8), limits: limits))
        #expect(byByte == error, "byte by byte: \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    // MARK: Limits

    @Test func requestLineAtTheLimitPassesOneOverGets414() {
        let limits = HTTPRequestParser.Limits(maxRequestLineLength: 64)
        let prefix = "GET /", suffix = " HTTP/1.1"
        let exact = prefix + String(repeating: "a", count: 64 - prefix.count - suffix.count) + suffix
        #expect(T.heads(T.events(exact + "\r\nHost: a\r\n\r\n", limits: limits)).count == 1)
        let over = prefix + String(repeating: "a", count: 65 - prefix.count - suffix.count) + suffix
        expectError(over + "\r\nHost: a\r\n\r\n", "request_line_too_long", 414, limits: limits)
    }

    @Test func unterminatedLongRequestLineGets414WithoutWaitingForItsEnd() {
        var parser = HTTPRequestParser()
        parser.receive(Array(("GET /" + String(repeating: "x", count: 9000)).utf8))
        #expect(parser.nextEvent()?.errorStatus == 414)
    }

    @Test func headerBytesOverTheLimitGet431() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 40)
        // "Host: a\r\n" (9) + "X: " + 26 + "\r\n" (31) = 40 bytes exactly.
        let fits = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 26) + "\r\n\r\n"
        #expect(T.heads(T.events(fits, limits: limits)).count == 1)
        // The closing CR arriving alone must not be counted against a full header budget.
        #expect(T.heads(T.eventsByteByByte(Array(fits.utf8), limits: limits)).count == 1)
        let over = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 27) + "\r\n\r\n"
        expectError(over, "headers_too_large", 431, limits: limits)
    }

    @Test func defaultHeaderBlockOf32KiBIsEnforcedEvenWithoutALineEnd() {
        var parser = HTTPRequestParser()
        parser.receive(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 33000)).utf8))
        let event = parser.nextEvent()
        #expect(event?.errorCode == "headers_too_large")
        #expect(event?.errorStatus == 431)
    }

    @Test func headerCountOverTheLimitGets431() {
        let fields = (1...100).map { "X-\($0): v\r\n" }.joined()
        #expect(T.heads(T.events("GET / HTTP/1.0\r\n" + fields + "\r\n")).count == 1)
        expectError("GET / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n", "too_many_headers", 431)
    }

    @Test func contentLengthOverTheLimitGets413BeforeAnyBodyArrives() {
        var parser = HTTPRequestParser()
        parser.receive(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n".utf8))
        #expect(parser.nextEvent()?.isHead == true)
        let event = parser.nextEvent()
        #expect(event?.errorCode == "body_too_large")
        #expect(event?.errorStatus == 413)
    }

    @Test func contentLengthAtTheLimitIsAccepted() {
        let limits = HTTPRequestParser.Limits(maxBodySize: 5)
        let events = T.events("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n12345", limits: limits)
        #expect(T.bodyText(events) == "12345")
    }

    @Test func routeSpecificLimitAppliesAfterHead() {
        var parser = HTTPRequestParser()
        parser.receive(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n".utf8))
        #expect(parser.nextEvent()?.isHead == true)
        parser.maxBodySize = 99
        #expect(parser.nextEvent()?.errorStatus == 413)
    }

    @Test func chunkedBodyGrowingOverTheLimitGets413() {
        let limits = HTTPRequestParser.Limits(maxBodySize: 10)
        var parser = HTTPRequestParser(limits: limits)
        parser.receive(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n".utf8))
        #expect(T.bodyText(T.drain(&parser)) == "abcdef")
        parser.receive(Array("4\r\nghij\r\n".utf8))
        #expect(T.bodyText(T.drain(&parser)) == "ghij")
        parser.receive(Array("1\r\nk\r\n0\r\n\r\n".utf8))
        let event = parser.nextEvent()
        #expect(event?.errorCode == "body_too_large")
        #expect(event?.errorStatus == 413)
    }

    @Test func hugeChunkSizeGets413WithoutBuffering() {
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFF\r\n", "body_too_large", 413)
    }

    @Test func trailersCountAgainstTheHeaderLimits() {
        let limits = HTTPRequestParser.Limits(maxHeaderCount: 3)
        let ok = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n\r\n"
        #expect(T.events(ok, limits: limits).last == .end(trailers: ["T": "1"]))
        let tooMany = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\nU: 2\r\n\r\n"
        expectError(tooMany, "too_many_headers", 431, limits: limits)
        let big =
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: "
            + String(repeating: "t", count: 40000) + "\r\n\r\n"
        expectError(big, "headers_too_large", 431)
    }

    @Test func overlongChunkLineGivesTheSameErrorWhateverItsEnding() {
        // Found by the fuzzer: a too-long line without CRLF was judged by its ending when it
        // arrived whole and by its length when it arrived in pieces.
        let limits = HTTPRequestParser.Limits(maxChunkLineLength: 16)
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        expectError(head + "2;ext=1\rrllOS\r6GET \n", "bad_chunk", 400, limits: limits)
        #expect(T.error(head + "2;ext=1\rrllOS\r6GET \n", limits: limits)?.message.contains("longer") == true)
    }

    @Test func longChunkExtensionIsRejected() {
        let text =
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 5000)
            + "\r\nx\r\n0\r\n\r\n"
        expectError(text, "bad_chunk", 400)
    }

    // MARK: Request line

    @Test func malformedRequestLinesGet400() {
        for line in [
            "GET", "GET /", "GET  / HTTP/1.1", "GET /  HTTP/1.1", "GET\t/ HTTP/1.1", "GET / HTTP/1.1 ",
            " GET / HTTP/1.1", "G(T / HTTP/1.1", "GET / http/1.1", "GET / HTTP/1", "GET / HTTP/1.1x",
            "GET / HTTP/11.1", "GET /\u{7F} HTTP/1.1", "GET / HTTP/x.y", "\u{1}GET / HTTP/1.1"
        ] {
            expectError(line + "\r\nHost: a\r\n\r\n", "malformed_request_line", 400)
        }
    }

    @Test func nonASCIIInTheTargetGets400() {
        var bytes = Array("GET /caf".utf8)
        bytes += [0xC3, 0xA9]
        bytes += Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        #expect(T.error(T.events(bytes))?.code == "malformed_request_line")
    }

    @Test func otherVersionsGet505() {
        for version in ["HTTP/2.0", "HTTP/0.9", "HTTP/3.0", "HTTP/9.9"] {
            expectError("GET / \(version)\r\nHost: a\r\n\r\n", "unsupported_version", 505)
        }
    }

    // MARK: Header fields

    @Test func obsFoldGets400() {
        expectError("GET / HTTP/1.1\r\nHost: a\r\nX: one\r\n two\r\n\r\n", "obs_fold", 400)
        expectError("GET / HTTP/1.1\r\nHost: a\r\nX: one\r\n\ttwo\r\n\r\n", "obs_fold", 400)
        expectError("GET / HTTP/1.1\r\n Host: a\r\n\r\n", "obs_fold", 400)
    }

    @Test func malformedHeaderLinesGet400() {
        for line in [
            "Host : a", "Host\t: a", "NoColon", ": empty-name", "Bad Name: v", "X: a\u{0}b", "X: a\u{7F}",
            "X(y): v", "X: \u{1B}[31m"
        ] {
            expectError("GET / HTTP/1.1\r\nHost: a\r\n\(line)\r\n\r\n", "malformed_header", 400)
        }
    }

    @Test func obsTextInValuesIsAccepted() throws {
        var bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX: caf".utf8)
        bytes += [0xC3, 0xA9]
        bytes += Array("\r\n\r\n".utf8)
        let head = try #require(T.heads(T.events(bytes)).first)
        #expect(head.headers.first("X") == "café")
    }

    @Test func hostRules() {
        expectError("GET / HTTP/1.1\r\n\r\n", "missing_host", 400)
        expectError("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", "multiple_hosts", 400)
        expectError("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", "multiple_hosts", 400)
    }

    // MARK: Framing and smuggling

    @Test func contentLengthMustBeDigits() {
        for value in ["-1", "+5", "0x10", "5 5", "", "1.0", "abc", "99999999999999999999", "5,"] {
            expectError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(value)\r\n\r\n", "invalid_content_length", 400)
        }
    }

    @Test func repeatedIdenticalContentLengthIsAccepted() {
        let events = T.events(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\ncontent-length: 3\r\nContent-Length: 3, 3\r\n\r\nabc")
        #expect(T.bodyText(events) == "abc")
        #expect(events.last == .end(trailers: HTTPHeaders()))
    }

    @Test func differingContentLengthsAreRejected() {
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 30\r\n\r\nabc", "conflicting_length",
            400)
        expectError("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabc", "conflicting_length", 400)
    }

    @Test func contentLengthWithTransferEncodingIsRejected() {
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "conflicting_length", 400)
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\n",
            "conflicting_length", 400)
    }

    @Test func transferEncodingMustEndInASingleChunked() {
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", "invalid_transfer_encoding", 400)
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n",
            "invalid_transfer_encoding", 400)
        expectError("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", "invalid_transfer_encoding", 400)
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", "invalid_transfer_encoding",
            400)
        expectError("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \r\n\r\n", "invalid_transfer_encoding", 400)
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n", "invalid_transfer_encoding", 400)
    }

    @Test func unknownCodingBeforeChunkedGets501() {
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "unsupported_transfer_encoding",
            501)
        expectError(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: br\r\nTransfer-Encoding: chunked\r\n\r\n",
            "unsupported_transfer_encoding", 501)
    }

    @Test func transferEncodingInHTTP10IsRejected() {
        expectError("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "invalid_transfer_encoding", 400)
    }

    @Test func smuggledSecondRequestInsideAChunkedBodyStaysBody() {
        let inner = "GET /admin HTTP/1.1\r\nHost: a\r\n\r\n"
        let size = String(inner.utf8.count, radix: 16)
        let events = T.events(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\n\(inner)\r\n0\r\n\r\n")
        #expect(T.heads(events).map(\.target) == ["/"])
        #expect(T.bodyText(events) == inner)
    }

    @Test func malformedChunksGet400() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        for body in [
            "\r\n", "g\r\n", "-1\r\n", "0x5\r\nhello\r\n", "5\r\nhelloXX", "5\r\nhello\n0\r\n\r\n", "5\nhello\r\n",
            "5 x\r\nhello\r\n", "5;a\u{0}b\r\nhello\r\n", "1\r\na\r\n0\r\nT: 1\n\n", "0\r\n\n",
            "10000000000000000\r\n"
        ] {
            expectError(head + body, "bad_chunk", 400)
        }
    }

    @Test func chunkSizeWithLeadingZerosDoesNotOverflow() {
        let events = T.events(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000000000003\r\nabc\r\n0\r\n\r\n"
        )
        #expect(T.bodyText(events) == "abc")
    }

    @Test func missingCRLFAfterChunkDataIsDetectedEarly() {
        var parser = HTTPRequestParser()
        parser.receive(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX".utf8))
        let events = T.drain(&parser)
        #expect(events.last?.errorCode == "bad_chunk")
    }

    @Test func errorsCarryHumanMessages() throws {
        let error = try #require(T.error("GET / HTTP/2.0\r\n\r\n"))
        #expect(error.message.contains("HTTP/2.0"))
        #expect(error.description.hasPrefix("unsupported_version (505)"))
    }
}
