import Testing
@testable import ParleyKit
import ParleyKitTesting
import ParleyWire

private func message(_ seq: Int64, room: String = "r", text: String = "m") -> ChatMessage {
    ChatMessage(id: seq, roomID: room, seq: seq, senderID: "u", parts: [.text(text + String(seq))], createdAt: seq)
}

@Test func sequencerDeliversInOrderExactlyOnce() {
    var sequencer = RoomSequencer(after: 0)
    #expect(sequencer.receive(message(1)).map(\.seq) == [1])
    #expect(sequencer.receive(message(1)).isEmpty)
    #expect(sequencer.receive(message(3)).isEmpty)
    #expect(sequencer.needsFill)
    #expect(sequencer.receive(message(3)).isEmpty)
    #expect(sequencer.receive(page: [message(2), message(3), message(4)]).map(\.seq) == [2, 3, 4])
    #expect(!sequencer.needsFill)
    #expect(sequencer.receive(page: [message(1), message(4)]).isEmpty)
}

@Test func sequencerWithUnknownBaselineWaitsForIt() {
    var sequencer = RoomSequencer(after: nil)
    #expect(sequencer.receive(message(6)).isEmpty)
    #expect(sequencer.needsFill)
    #expect(sequencer.setBaseline(5).map(\.seq) == [6])
    #expect(sequencer.delivered == 6)
}

@Test func sequencerKeepsTheNewestVersionOfAWaitingMessage() {
    var sequencer = RoomSequencer(after: 0)
    _ = sequencer.receive(message(2, text: "old"))
    let knownBefore = sequencer.isDelivered(update: message(2, text: "new"))
    #expect(!knownBefore)
    #expect(sequencer.receive(message(1)).map(\.text) == ["m1", "new2"])
    let knownAfter = sequencer.isDelivered(update: message(2))
    #expect(knownAfter)
}

@Test func reconnectPolicyFollowsPusherCloseCodeClasses() {
    let policy = ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30), immediateLimit: 2)
    for code in [4001, 4004, 4009, 4099] { #expect(policy.decision(closeCode: code, attempt: 1, random: 0.5) == .stop) }
    #expect(policy.decision(closeCode: 4200, attempt: 1, random: 0.5) == .retry(after: .zero))
    #expect(policy.decision(closeCode: 4201, attempt: 2, random: 0.5) == .retry(after: .zero))
    // Immediate reconnects that keep failing fall back to backoff.
    #expect(policy.decision(closeCode: 4200, attempt: 3, random: 0) == .retry(after: .seconds(2)))
    #expect(policy.decision(closeCode: 4100, attempt: 1, random: 0) == .retry(after: .milliseconds(500)))
    #expect(policy.decision(closeCode: 4100, attempt: 1, random: 0.999) == .retry(after: .milliseconds(999)))
    #expect(policy.decision(closeCode: nil, attempt: 4, random: 1) == .retry(after: .seconds(8)))
    #expect(policy.decision(closeCode: 1006, attempt: 50, random: 1) == .retry(after: .seconds(30)))
}

@Test func responseParserReadsContentLengthAcrossReads() throws {
    var parser = HTTPResponseParser()
    let text = Array("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":\"bcd\"}".utf8)
    for byte in text.dropLast() { #expect(try parser.receive([byte]) == nil) }
    let response = try #require(try parser.receive([text.last!]))
    #expect(response.status == 201)
    #expect(response.headers.first("content-type") == "application/json")
    #expect(String(decoding: response.body, as: UTF8.self) == "{\"a\":\"bcd\"}")
}

@Test func responseParserDechunksAndReadsUntilEOF() throws {
    var chunked = HTTPResponseParser()
    let response = try #require(try chunked.receive(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".utf8)))
    #expect(response.body == Array("abcde".utf8))
    var eof = HTTPResponseParser()
    #expect(try eof.receive(Array("HTTP/1.1 200 OK\r\n\r\nhello".utf8)) == nil)
    #expect(try eof.finish().body == Array("hello".utf8))
    var noContent = HTTPResponseParser()
    #expect(try noContent.receive(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))?.status == 204)
}

@Test func responseParserRejectsMalformedTruncatedAndOversized() {
    #expect(rejects("HTTP/2 OK\r\n\r\n"))
    #expect(rejects("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", finish: true))
    #expect(rejects("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", bodyLimit: 4))
    #expect(rejects("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"))
    #expect(rejects("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"))
    #expect(!rejects("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n"))
}

private func rejects(_ text: String, bodyLimit: Int = 1 << 20, finish: Bool = false) -> Bool {
    var parser = HTTPResponseParser(bodyLimit: bodyLimit)
    do {
        _ = try parser.receive(Array(text.utf8))
        if finish { _ = try parser.finish() }
        return false
    } catch {
        return true
    }
}

@Test func requestEncoderFramesTheRequest() throws {
    let url = try #require(HTTPRequestEncoder.parse("http://example.test:8080/v1/me?x=1"))
    var request = HTTPRequestMessage(method: "POST", url: "http://example.test:8080/v1/me?x=1", body: Array("{}".utf8))
    request.headers.add("Content-Length", "999")
    request.headers.add("Accept", "application/json")
    let text = String(decoding: HTTPRequestEncoder.encode(request, url: url), as: UTF8.self)
    #expect(text == "POST /v1/me?x=1 HTTP/1.1\r\nHost: example.test:8080\r\nAccept: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    let secure = try #require(HTTPRequestEncoder.parse("https://example.test/v1"))
    #expect(secure.isSecure && secure.port == 443 && secure.hostHeader == "example.test" && secure.target == "/v1")
    #expect(HTTPRequestEncoder.parse("https://example.test:8443/")?.hostHeader == "example.test:8443")
    #expect(HTTPRequestEncoder.parse("ftp://example.test/") == nil)
}

@Test func jwtClaimsReadSubjectAndExpiry() {
    let token = InMemoryChatServer(clock: ManualClock()).token(for: "alice", expiresAt: 1234)
    let claims = JWTClaims(token: token)
    #expect(claims?.subject == "alice")
    #expect(claims?.expiresAt == 1234)
    #expect(JWTClaims(token: "not-a-jwt") == nil)
    #expect(JWTClaims(token: "a.!!!.c") == nil)
}

@Test func pathSegmentsArePercentEncoded() {
    #expect(ChatAPI.path("rooms", "a b", "messages", "1", "reactions", "👍") == "/v1/rooms/a%20b/messages/1/reactions/%F0%9F%91%8D")
}

/// A token endpoint that counts its calls and mints tokens expiring an hour after `clock`.
private struct TokenEndpoint: HTTPTransport {
    let server: InMemoryChatServer
    let clock: ManualClock
    let calls: Counter

    func send(_ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?) async throws(ParleyError) -> HTTPResponseMessage {
        await calls.increment()
        let user = (try? JSONParser.parse(request.body))?["user_id"]?.stringValue ?? "?"
        let token = server.token(for: user, expiresAt: clock.now() / 1000 + 3600)
        return HTTPResponseMessage(status: 200, body: JSONWriter.serialize(.object(["token": .string(token)])))
    }
}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

@Test func httpTokenProviderCachesAndRenewsBeforeExpiry() async throws {
    let clock = ManualClock()
    let calls = Counter()
    let provider = HTTPTokenProvider(url: "http://backend/auth", userID: "alice",
                                     http: TokenEndpoint(server: InMemoryChatServer(clock: clock), clock: clock, calls: calls),
                                     clock: clock, renewBefore: .seconds(60))
    let first = try await provider.token()
    #expect(JWTClaims(token: first)?.subject == "alice")
    _ = try await provider.token()
    #expect(await calls.value == 1)
    clock.advance(by: .seconds(3600 - 61))
    _ = try await provider.token()
    #expect(await calls.value == 1)
    clock.advance(by: .seconds(2))
    let renewed = try await provider.token()
    #expect(await calls.value == 2)
    #expect(renewed != first)
    _ = try await provider.token(forceRefresh: true)
    #expect(await calls.value == 3)
}

@Test func manualClockWakesSleepersInDeadlineOrder() async throws {
    let clock = ManualClock()
    let order = Counter()
    let late = Task { try await clock.sleep(for: .seconds(2)); await order.increment(); return await order.value }
    let early = Task { try await clock.sleep(for: .seconds(1)); await order.increment(); return await order.value }
    while clock.sleeperCount < 2 { await Task.yield() }
    clock.advance(by: .seconds(1))
    #expect(try await early.value == 1)
    clock.advance(by: .seconds(1))
    #expect(try await late.value == 2)
    let cancelled = Task { try await clock.sleep(for: .seconds(5)) }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
}

