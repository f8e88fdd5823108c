import ParleyKitTesting
import ParleyWire
import Testing

@testable import ParleyKit

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

@Test func sequencerPassesOverSeqsAHistoryPageLeavesOut() {
    // History leaves thread-only replies out: seq 2 and 4 are such replies here.
    var sequencer = RoomSequencer(after: 1)
    #expect(sequencer.receive(message(5)).isEmpty)
    #expect(sequencer.receive(message(4)).isEmpty, "4 arrived live")
    #expect(sequencer.receive(page: [message(3), message(5)]).map(\.seq) == [3, 4, 5])
    #expect(!sequencer.needsFill)
    #expect(sequencer.receive(message(6)).map(\.seq) == [6])
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
    let provider = HTTPTokenProvider(
        url: "http://backend/auth", userID: "alice",
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
    let late = Task {
        try await clock.sleep(for: .seconds(2)); await order.increment(); return await order.value
    }
    let early = Task {
        try await clock.sleep(for: .seconds(1)); await order.increment(); return await order.value
    }
    while clock.sleeperCount < 2 { await Task.yield() }
    clock.advance(by: .seconds(1))
    #expect(try await early.value == 1)
    clock.advance(by: .seconds(1))
    #expect(try await late.value == 2)
    let cancelled = Task { try await clock.sleep(for: .seconds(5)) }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
}
