import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyChat

/// The chat hooks' value state machines: batching and retrying (`ChatHookQueue`), which
/// realtime events become which hook events, before-send answers, quiet periods, signatures.
struct ChatHookQueueTests {
    let target = ChatHookQueue.Target(appID: "1", key: "k", secret: "s", url: WebhookURL("http://127.0.0.1:9/events")!)

    func event(_ n: Int) -> JSONValue { .object(["n": .int(n)]) }

    func numbers(_ delivery: ChatHookQueue.Delivery) throws -> [Int] {
        let body = try JSONParser.parse(delivery.request.body)
        return (body["events"]?.arrayValue ?? []).compactMap { $0["n"]?.intValue }
    }

    @Test func eventsWaitForTheBatchWindowAndGoTogether() throws {
        var queue = ChatHookQueue(batchWindow: 100)
        queue.enqueue(event(1), to: target, now: 0)
        queue.enqueue(event(2), to: target, now: 50)
        #expect(queue.nextDeadline == 100)
        #expect(queue.tick(now: 99, wallMillis: 0).isEmpty)
        let sent = queue.tick(now: 100, wallMillis: 1_700_000_000_000)
        #expect(sent.count == 1)
        #expect(try numbers(sent[0]) == [1, 2])
        #expect(queue.count == 2)
        queue.result(id: sent[0].id, succeeded: true, now: 120)
        #expect(queue.count == 0 && queue.nextDeadline == nil)
    }

    @Test func oneRequestPerEndpointIsOutAndLaterEventsGrowOneBatch() throws {
        var queue = ChatHookQueue(batchWindow: 0)
        queue.enqueue(event(1), to: target, now: 0)
        let first = queue.tick(now: 0, wallMillis: 0)
        for n in 2...5 { queue.enqueue(event(n), to: target, now: 1) }
        #expect(queue.tick(now: 1000, wallMillis: 0).isEmpty, "nothing more while the first request is out")
        queue.result(id: first[0].id, succeeded: true, now: 1000)
        let second = queue.tick(now: 1000, wallMillis: 0)
        #expect(try second.map(numbers) == [[2, 3, 4, 5]])
    }

    @Test func aFailedRequestIsRetriedWithBackoffThenGivenUp() throws {
        var queue = ChatHookQueue(batchWindow: 0, retryWindow: 2500, retryBase: 1000)
        queue.enqueue(event(1), to: target, now: 0)
        let first = try #require(queue.tick(now: 0, wallMillis: 0).first)
        queue.result(id: first.id, succeeded: false, now: 10)
        #expect(queue.nextDeadline == 1010)
        #expect(queue.tick(now: 1009, wallMillis: 0).isEmpty)
        let second = try #require(queue.tick(now: 1010, wallMillis: 0).first)
        #expect(second.attempt == 2)
        #expect(try numbers(second) == [1])
        queue.result(id: second.id, succeeded: false, now: 1020)
        // The next wait (2 s) would end past the 2.5-s window: given up.
        #expect(queue.abandoned == 1 && queue.count == 0 && queue.nextDeadline == nil)
    }

    @Test func aFullQueueDropsNewEvents() {
        var queue = ChatHookQueue(capacity: 2)
        let accepted = (1...3).map { queue.enqueue(event($0), to: target, now: 0) }
        #expect(accepted == [true, true, false])
        #expect(queue.dropped == 1 && queue.count == 2)
    }

    @Test func requestsAreSignedOverTimestampAndBody() throws {
        #expect(
            ChatHookSignature.sign(secret: "secret", timestamp: 1_700_000_000, body: Array(#"{"a":1}"#.utf8))
                == "v1=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686")
        var queue = ChatHookQueue(batchWindow: 0)
        queue.enqueue(event(1), to: target, now: 0)
        let delivery = try #require(queue.tick(now: 0, wallMillis: 1_700_000_000_999).first)
        let headers = Dictionary(delivery.request.headers, uniquingKeysWith: { $1 })
        #expect(headers["X-Parley-Timestamp"] == "1700000000")
        #expect(
            headers["X-Parley-Signature"] == ChatHookSignature.sign(secret: "s", timestamp: 1_700_000_000, body: delivery.request.body))
    }

    @Test func realtimeEventsBecomeHookEvents() {
        let room = ChatEvent.roomChannel("r")
        let created = ChatHookEvents.translate([
            ChatEvent(channel: ChatEvent.userChannel("alice"), name: "room.added", data: .object(["room_id": .string("r")])),
            ChatEvent(channel: ChatEvent.userChannel("bob"), name: "room.added", data: .object(["room_id": .string("r")]))
        ])
        #expect(created.map(\.kind) == ["room.created"])
        #expect(created.first?.data["member_ids"] == .array([.string("alice"), .string("bob")]))
        let joined = ChatHookEvents.translate([
            ChatEvent(channel: room, name: "member.joined", data: .object(["room_id": .string("r"), "user_id": .string("bob")])),
            ChatEvent(channel: ChatEvent.userChannel("bob"), name: "room.added", data: .object(["room_id": .string("r")]))
        ])
        #expect(joined.map(\.kind) == ["member.added"])
        let others = ChatHookEvents.translate([
            ChatEvent(channel: room, name: "reaction.changed", data: .object(["action": .string("removed")])),
            ChatEvent(channel: room, name: "typing", data: .null),
            ChatEvent(channel: ChatEvent.userChannel("bob"), name: "room.activity", data: .null),
            ChatEvent(channel: room, name: "member.left", data: .null)
        ])
        #expect(others.map(\.kind) == ["reaction.removed", "member.removed"])
    }

    @Test func beforeSendAnswersAreRead() {
        func verdict(_ status: Int, _ body: String) -> BeforeSendVerdict {
            BeforeSendVerdict(ChatHookAnswer(status: status, body: Array(body.utf8)))
        }
        #expect(verdict(200, #"{"action":"allow"}"#) == .allow)
        #expect(verdict(200, #"{"action":"reject","reason":"no"}"#) == .reject("no"))
        #expect(verdict(200, #"{"action":"reject"}"#) == .reject("the message was rejected"))
        if case .rewrite(let object) = verdict(200, #"{"action":"rewrite","text":"hi"}"#) {
            #expect(object["parts"] == .array([.object(["type": .string("text"), "text": .string("hi")])]))
        } else {
            Issue.record("a text rewrite is a rewrite")
        }
        let failures = [
            verdict(500, #"{"action":"allow"}"#), verdict(200, "nope"), verdict(200, #"{"action":"maybe"}"#), BeforeSendVerdict(nil)
        ]
        for failed in failures {
            if case .failed = failed { continue }
            Issue.record("\(failed) should be a failure")
        }
    }

    @Test func aMemberIsNotifiedOncePerQuietPeriod() {
        var gate = NotificationGate(capacity: 2)
        let bob = NotificationGate.Key(app: "1", room: "r", user: "bob")
        let carol = NotificationGate.Key(app: "1", room: "r", user: "carol")
        let dave = NotificationGate.Key(app: "1", room: "r", user: "dave")
        // At capacity the expired entries go first; the live ones still count.
        let steps = [(bob, 0), (bob, 999), (carol, 10), (bob, 1000), (dave, 1005), (bob, 1006)]
        let admitted = steps.map { gate.admit($0.0, now: Int64($0.1), quiet: 1000) }
        #expect(admitted == [true, false, true, true, true, false])
    }
}
