import Testing

@testable import ParleyWire

@Suite struct WebSocketServerHandshakeTests {
    static let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="

    static func request(
        _ extra: [(String, String)] = [], drop: Set<String> = [], method: HTTPMethod = .GET,
        version: HTTPVersion = .http1_1
    ) -> HTTPRequestHead {
        var pairs: [(String, String)] = [
            ("Host", "server.example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", rfcKey), ("Sec-WebSocket-Version", "13")
        ]
        pairs.removeAll { drop.contains($0.0) }
        return HTTPRequestHead(method: method, target: "/chat?x=1", version: version, headers: HTTPHeaders(pairs + extra))
    }

    static func failure(_ request: HTTPRequestHead) -> WebSocketHandshakeError? {
        do { _ = try WebSocketServerHandshake(request: request); return nil } catch { return error }
    }

    @Test func acceptValueMatchesRFC6455Example() {
        #expect(WebSocketHandshakeEncoding.acceptValue(for: Self.rfcKey) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func validRequestGets101WithAcceptHeader() throws {
        let handshake = try WebSocketServerHandshake(request: Self.request())
        let accepted = try handshake.accept()
        #expect(accepted.response.status.code == 101)
        #expect(accepted.response.headers.first("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(accepted.response.headers.first("Upgrade") == "websocket")
        #expect(accepted.response.headers.tokens("Connection") == ["upgrade"])
        #expect(accepted.response.headers.first("Sec-WebSocket-Extensions") == nil)
        #expect(accepted.deflate == nil && accepted.subprotocol == nil)
        let text = String(decoding: accepted.responseBytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(text.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test func connectionTokenListAndCaseAreAccepted() throws {
        var request = Self.request(drop: ["Connection", "Upgrade"])
        request.headers.add("connection", "keep-alive, Upgrade")
        request.headers.add("upgrade", "WebSocket")
        #expect(throws: Never.self) { try WebSocketServerHandshake(request: request) }
    }

    @Test(arguments: [nil, "8", "12", "13, 8", "abc"])
    func wrongOrMissingVersionIs426(_ version: String?) throws {
        var request = Self.request(drop: ["Sec-WebSocket-Version"])
        if let version { request.headers.add("Sec-WebSocket-Version", version) }
        let error = try #require(Self.failure(request))
        #expect(error.code == .unsupportedVersion)
        #expect(error.status.code == 426)
        #expect(error.response.status.code == 426)
        #expect(error.response.headers.first("Sec-WebSocket-Version") == "13")
    }

    @Test func badRequestsAre400WithStableCodes() throws {
        let cases: [(HTTPRequestHead, WebSocketHandshakeError.Code)] = [
            (Self.request(method: .POST), .methodNotGet),
            (Self.request(version: .http1_0), .httpVersionTooOld),
            (Self.request(drop: ["Upgrade"]), .missingUpgrade),
            (Self.request([("Upgrade", "h2c")], drop: ["Upgrade"]), .missingUpgrade),
            (Self.request(drop: ["Connection"]), .missingConnectionUpgrade),
            (Self.request([("Connection", "keep-alive")], drop: ["Connection"]), .missingConnectionUpgrade),
            (Self.request(drop: ["Sec-WebSocket-Key"]), .invalidKey),
            (Self.request([("Sec-WebSocket-Key", "c2hvcnQ=")], drop: ["Sec-WebSocket-Key"]), .invalidKey),
            (Self.request([("Sec-WebSocket-Key", "not base64 at all!!")], drop: ["Sec-WebSocket-Key"]), .invalidKey),
            (Self.request([("Sec-WebSocket-Key", Self.rfcKey)]), .invalidKey),
            (Self.request([("Sec-WebSocket-Extensions", "permessage-deflate; =")]), .invalidExtensions),
            (Self.request([("Sec-WebSocket-Extensions", "permessage-deflate; x=\"open")]), .invalidExtensions)
        ]
        for (request, code) in cases {
            let error = try #require(Self.failure(request), "expected \(code)")
            #expect(error.code == code)
            #expect(error.status.code == 400)
            #expect(error.response.headers.first("Sec-WebSocket-Version") == nil)
        }
    }

    @Test func subprotocolsAndOriginAreExposed() throws {
        let request = Self.request([
            ("Sec-WebSocket-Protocol", "chat.v2, Chat"), ("Sec-WebSocket-Protocol", "pusher"),
            ("Origin", "https://app.example")
        ])
        let handshake = try WebSocketServerHandshake(request: request)
        #expect(handshake.requestedSubprotocols == ["chat.v2", "Chat", "pusher"])
        #expect(handshake.origin == "https://app.example")
        #expect(handshake.request.target == "/chat?x=1")

        let byPreference = handshake.accept(supportedSubprotocols: ["pusher", "chat.v2"])
        #expect(byPreference.subprotocol == "pusher")
        #expect(byPreference.response.headers.first("Sec-WebSocket-Protocol") == "pusher")
        #expect(handshake.accept(supportedSubprotocols: ["chat"]).subprotocol == nil)  // case-sensitive
        #expect(handshake.accept(supportedSubprotocols: ["chat"]).response.headers.first("Sec-WebSocket-Protocol") == nil)

        #expect(throws: WebSocketHandshakeError(.subprotocolNotRequested, "subprotocol mqtt was not requested")) {
            try handshake.accept(subprotocol: "mqtt")
        }
    }

    @Test func extraHeadersAreAddedWithoutInjection() throws {
        let handshake = try WebSocketServerHandshake(request: Self.request())
        let accepted = try handshake.accept(headers: ["X-Node": "a\r\nSet-Cookie: evil=1"])
        let text = String(decoding: accepted.responseBytes, as: UTF8.self)
        #expect(text.contains("X-Node: a Set-Cookie: evil=1\r\n"))
        #expect(!text.contains("\r\nSet-Cookie"))
    }
}

@Suite struct WebSocketDeflateNegotiationTests {
    /// Offer header → (server policy) → expected response header, or nil when declined.
    static let matrix: [(offer: String, policy: WebSocketDeflateOptions, response: String?)] = [
        ("permessage-deflate", .init(), "permessage-deflate"),
        ("permessage-deflate; client_max_window_bits", .init(), "permessage-deflate"),
        (
            "permessage-deflate; client_max_window_bits", .init(clientMaxWindowBits: 10),
            "permessage-deflate; client_max_window_bits=10"
        ),
        ("permessage-deflate; client_max_window_bits=12", .init(), "permessage-deflate; client_max_window_bits=12"),
        (
            "permessage-deflate; client_max_window_bits=12", .init(clientMaxWindowBits: 9),
            "permessage-deflate; client_max_window_bits=9"
        ),
        ("permessage-deflate", .init(clientMaxWindowBits: 10), nil),
        ("permessage-deflate; server_max_window_bits=10", .init(), "permessage-deflate; server_max_window_bits=10"),
        ("permessage-deflate; server_max_window_bits=8", .init(), "permessage-deflate; server_max_window_bits=8"),
        (
            "permessage-deflate; server_max_window_bits=12", .init(serverMaxWindowBits: 10),
            "permessage-deflate; server_max_window_bits=10"
        ),
        ("permessage-deflate", .init(serverMaxWindowBits: 11), "permessage-deflate; server_max_window_bits=11"),
        ("permessage-deflate; server_max_window_bits=\"10\"", .init(), "permessage-deflate; server_max_window_bits=10"),
        (
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover", .init(),
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
        ),
        ("permessage-deflate", .init(serverNoContextTakeover: true), "permessage-deflate; server_no_context_takeover"),
        ("permessage-deflate", .init(clientNoContextTakeover: true), "permessage-deflate; client_no_context_takeover"),
        ("permessage-deflate; server_max_window_bits", .init(), nil),
        ("permessage-deflate; server_max_window_bits=16", .init(), nil),
        ("permessage-deflate; server_max_window_bits=7", .init(), nil),
        ("permessage-deflate; server_max_window_bits=08", .init(), nil),
        ("permessage-deflate; client_max_window_bits=abc", .init(), nil),
        ("permessage-deflate; server_no_context_takeover=1", .init(), nil),
        ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", .init(), nil),
        ("permessage-deflate; mystery", .init(), nil),
        ("x-webkit-deflate-frame", .init(), nil),
        (
            "permessage-deflate; mystery, permessage-deflate; server_max_window_bits=12", .init(),
            "permessage-deflate; server_max_window_bits=12"
        ),
        ("x-webkit-deflate-frame, permessage-deflate; client_max_window_bits", .init(), "permessage-deflate"),
        ("Permessage-Deflate", .init(), "permessage-deflate")
    ]

    @Test func negotiationMatrix() throws {
        for entry in Self.matrix {
            let request = WebSocketServerHandshakeTests.request([("Sec-WebSocket-Extensions", entry.offer)])
            let accepted = try WebSocketServerHandshake(request: request).accept(deflate: entry.policy)
            #expect(accepted.response.headers.first("Sec-WebSocket-Extensions") == entry.response, "offer: \(entry.offer)")
            #expect((accepted.deflate != nil) == (entry.response != nil), "offer: \(entry.offer)")
        }
    }

    @Test func negotiatedParametersFollowTheResponse() throws {
        let offer = "permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_max_window_bits"
        let request = WebSocketServerHandshakeTests.request([("Sec-WebSocket-Extensions", offer)])
        let accepted = try WebSocketServerHandshake(request: request).accept(deflate: .init(clientMaxWindowBits: 12))
        #expect(
            accepted.deflate
                == WebSocketDeflateParameters(
                    serverNoContextTakeover: true, clientNoContextTakeover: false,
                    serverMaxWindowBits: 10, clientMaxWindowBits: 12))
    }

    @Test func noPolicyMeansNoCompression() throws {
        let request = WebSocketServerHandshakeTests.request([("Sec-WebSocket-Extensions", "permessage-deflate")])
        let accepted = try WebSocketServerHandshake(request: request).accept()
        #expect(accepted.deflate == nil)
        #expect(accepted.response.headers.first("Sec-WebSocket-Extensions") == nil)
    }

    @Test func clientOfferAndConfirmation() {
        let options = WebSocketDeflateOptions(serverNoContextTakeover: true, serverMaxWindowBits: 10)
        #expect(
            WebSocketDeflateNegotiation.offer(options).headerValue
                == "permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_max_window_bits")
        #expect(
            WebSocketDeflateNegotiation.offer(.init(clientMaxWindowBits: 9)).headerValue
                == "permessage-deflate; client_max_window_bits=9")

        func confirm(_ header: String, _ options: WebSocketDeflateOptions = .init()) -> WebSocketDeflateParameters? {
            guard let response = WebSocketExtension.parse([header])?.first else { return nil }
            return WebSocketDeflateNegotiation.confirm(response: response, offered: options)
        }
        #expect(confirm("permessage-deflate") == WebSocketDeflateParameters())
        #expect(confirm("permessage-deflate; client_max_window_bits=11")?.clientMaxWindowBits == 11)
        #expect(confirm("permessage-deflate; client_max_window_bits") == nil)  // value required in a response
        #expect(confirm("permessage-deflate; client_max_window_bits=12", .init(clientMaxWindowBits: 10)) == nil)
        #expect(confirm("permessage-deflate", .init(clientMaxWindowBits: 10))?.clientMaxWindowBits == 10)
        #expect(confirm("permessage-deflate; server_max_window_bits=9")?.serverMaxWindowBits == 9)
        #expect(confirm("permessage-deflate; server_max_window_bits=12", options) == nil)  // wider than asked
        #expect(confirm("permessage-deflate; server_max_window_bits=10", options) == nil)  // dropped no_context_takeover
        #expect(confirm("permessage-deflate; server_no_context_takeover", options) == nil)  // dropped window bits
        #expect(
            confirm("permessage-deflate; server_no_context_takeover; server_max_window_bits=9", options)
                == WebSocketDeflateParameters(serverNoContextTakeover: true, serverMaxWindowBits: 9))
        #expect(confirm("permessage-deflate; bogus") == nil)
        #expect(confirm("other-extension") == nil)
    }

    @Test func extensionHeaderParsing() throws {
        let parsed = try #require(WebSocketExtension.parse(["a; b=1 ; c=\"x\\\"y\", , d", "e"]))
        #expect(
            parsed == [
                WebSocketExtension(name: "a", parameters: [.init("b", "1"), .init("c", "x\"y")]),
                WebSocketExtension(name: "d"), WebSocketExtension(name: "e")
            ])
        #expect(WebSocketExtension.parse(["a;"]) == nil)
        #expect(WebSocketExtension.parse(["a b"]) == nil)
        #expect(WebSocketExtension.parse(["a; b=\"unterminated"]) == nil)
        #expect(WebSocketExtension.parse([]) == [])
    }
}

@Suite struct WebSocketClientHandshakeTests {
    static let key: [UInt8] = Array(0..<16)

    /// Runs our client request through our server handshake.
    static func serverAnswer(
        _ client: WebSocketClientHandshake, subprotocols: [String] = [],
        deflate: WebSocketDeflateOptions? = nil
    ) throws -> WebSocketServerHandshake.Accepted {
        try WebSocketServerHandshake(request: client.request).accept(supportedSubprotocols: subprotocols, deflate: deflate)
    }

    static func failure(_ client: WebSocketClientHandshake, _ response: HTTPResponseHead) -> WebSocketHandshakeError.Code? {
        do { _ = try client.validate(response); return nil } catch { return error.code }
    }

    @Test func requestCarriesTheUpgradeHeaders() throws {
        let client = WebSocketClientHandshake(
            host: "example.com:6001", path: "/app/key?protocol=7",
            subprotocols: ["v2", "v1"], origin: "http://example.com",
            headers: ["User-Agent": "parley"], deflate: .init())
        let text = String(decoding: client.requestBytes, as: UTF8.self)
        #expect(text.hasPrefix("GET /app/key?protocol=7 HTTP/1.1\r\nHost: example.com:6001\r\n"))
        for line in [
            "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Protocol: v2, v1", "Origin: http://example.com", "User-Agent: parley",
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits",
            "Sec-WebSocket-Key: \(client.key)"
        ] {
            #expect(text.contains("\r\n\(line)\r\n"), "missing \(line)")
        }
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(Base64.decode(client.key)?.count == 16)
        #expect(WebSocketClientHandshake(host: "h").key != WebSocketClientHandshake(host: "h").key)
    }

    @Test func roundTripWithOurServerIncludingEarlyFrames() throws {
        var client = WebSocketClientHandshake(host: "h", subprotocols: ["v1"], deflate: .init(serverNoContextTakeover: true))
        let accepted = try Self.serverAnswer(client, subprotocols: ["v1"], deflate: .init())
        let early = WebSocketFrame.serverText("hi")
        let completion = try #require(try client.receive(accepted.responseBytes + early))
        #expect(completion.response.status.code == 101)
        #expect(completion.negotiated.subprotocol == "v1")
        #expect(completion.negotiated.deflate == accepted.deflate)
        #expect(completion.negotiated.deflate?.serverNoContextTakeover == true)
        #expect(completion.remaining == early)
        var connection = WebSocketConnection(role: .client, options: completion.negotiated.options())
        #expect(connection.receive(completion.remaining).messages == [.text("hi")])
    }

    @Test func responseFedByteByByte() throws {
        var client = WebSocketClientHandshake(host: "h", key: Self.key)
        let bytes = try Self.serverAnswer(client).responseBytes
        var completion: WebSocketClientHandshake.Completion?
        for (index, byte) in bytes.enumerated() {
            completion = try client.receive([byte])
            #expect((completion != nil) == (index == bytes.count - 1))
        }
        #expect(completion?.remaining == [])
    }

    @Test func invalidResponsesAreRejected() throws {
        let client = WebSocketClientHandshake(host: "h", subprotocols: ["v1"], key: Self.key)
        let good = try Self.serverAnswer(client).response
        #expect(Self.failure(client, good) == nil)

        var notSwitching = good
        notSwitching.status = HTTPStatus(200)
        #expect(Self.failure(client, notSwitching) == .unexpectedStatus)

        var wrongAccept = good
        wrongAccept.headers.replace("Sec-WebSocket-Accept", WebSocketHandshakeEncoding.acceptValue(for: "other"))
        #expect(Self.failure(client, wrongAccept) == .invalidAccept)

        var noAccept = good
        noAccept.headers.remove("Sec-WebSocket-Accept")
        #expect(Self.failure(client, noAccept) == .invalidAccept)

        var noUpgrade = good
        noUpgrade.headers.remove("Upgrade")
        #expect(Self.failure(client, noUpgrade) == .upgradeNotConfirmed)

        var strangeProtocol = good
        strangeProtocol.headers.add("Sec-WebSocket-Protocol", "v9")
        #expect(Self.failure(client, strangeProtocol) == .unexpectedSubprotocol)

        var unofferedExtension = good
        unofferedExtension.headers.add("Sec-WebSocket-Extensions", "permessage-deflate")
        #expect(Self.failure(client, unofferedExtension) == .unexpectedExtension)
    }

    @Test func deflateResponseMustMatchTheOffer() throws {
        let client = WebSocketClientHandshake(host: "h", deflate: .init(serverMaxWindowBits: 10), key: Self.key)
        var response = try Self.serverAnswer(client, deflate: .init()).response
        #expect(response.headers.first("Sec-WebSocket-Extensions") == "permessage-deflate; server_max_window_bits=10")
        #expect(Self.failure(client, response) == nil)
        response.headers.replace("Sec-WebSocket-Extensions", "permessage-deflate; server_max_window_bits=15")
        #expect(Self.failure(client, response) == .unexpectedExtension)
        response.headers.replace("Sec-WebSocket-Extensions", "permessage-deflate; server_max_window_bits=9, permessage-deflate")
        #expect(Self.failure(client, response) == .unexpectedExtension)
        response.headers.replace("Sec-WebSocket-Extensions", "permessage-deflate; ;")
        #expect(Self.failure(client, response) == .invalidExtensions)
    }

    @Test func malformedAndOversizedResponses() {
        var client = WebSocketClientHandshake(host: "h")
        #expect(throws: WebSocketHandshakeError.self) { try client.receive(Array("HTTP/1.1 abc\r\n\r\n".utf8)) }
        var folded = WebSocketClientHandshake(host: "h")
        #expect(throws: WebSocketHandshakeError.self) {
            try folded.receive(Array("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\n  folded\r\n\r\n".utf8))
        }
        var huge = WebSocketClientHandshake(host: "h")
        let endless = Array("HTTP/1.1 101 OK\r\n".utf8) + [UInt8](repeating: 0x61, count: 20_000)
        do {
            _ = try huge.receive(endless)
            Issue.record("accepted an oversized head")
        } catch {
            #expect(error.code == .responseTooLarge)
        }
        var refused = WebSocketClientHandshake(host: "h")
        do {
            _ = try refused.receive(Array("HTTP/1.1 426 Upgrade Required\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8))
            Issue.record("accepted a refusal")
        } catch {
            #expect(error.code == .unexpectedStatus)
        }
    }
}
