import ParleyWire
import Testing

@testable import ParleyChannels

@Suite struct WebhookQueueTests {
    let app: AppConfig = {
        var app = testApp()
        app.webhooks = [WebhookConfig(url: WebhookURL("http://127.0.0.1:9/hook")!)]
        return app
    }()

    func events(_ delivery: WebhookDelivery) -> [JSONValue] {
        (try? JSONParser.parse(delivery.body))?["events"]?.arrayValue ?? []
    }

    @Test func batchesWithinTheWindowAndSigns() throws {
        var q = WebhookQueue(batchWindow: 50)
        q.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "a"), now: 0)
        q.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "b"), now: 30)
        #expect(q.tick(now: 49, wallMillis: 1).isEmpty)
        #expect(q.nextDeadline == 50)
        let deliveries = q.tick(now: 50, wallMillis: 1_700_000_000_000)
        #expect(deliveries.count == 1)
        let d = try #require(deliveries.first)
        #expect(events(d).map { $0["channel"] } == [.string("a"), .string("b")])
        #expect(try JSONParser.parse(d.body)["time_ms"] == .number("1700000000000"))
        #expect(d.key == app.key && PusherSignature.verifyWebhook(signature: d.signature, secret: app.secret, body: d.body))
        #expect(q.count == 0)
    }

    @Test func quickLeaveAndReturnIsSuppressed() {
        var q = WebhookQueue(batchWindow: 50, leaveDelay: 3000)
        q.enqueue(app: app, event: WebhookEvent(.memberRemoved, channel: "presence-a", userID: "u"), now: 0)
        q.enqueue(app: app, event: WebhookEvent(.channelVacated, channel: "presence-a"), now: 0)
        q.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "presence-a"), now: 1000)
        q.enqueue(app: app, event: WebhookEvent(.memberAdded, channel: "presence-a", userID: "u"), now: 1000)
        #expect(q.tick(now: 10_000, wallMillis: 0).isEmpty)
        #expect(q.count == 0)
    }

    @Test func slowLeaveIsDeliveredAfterTheDelay() {
        var q = WebhookQueue(batchWindow: 50, leaveDelay: 3000)
        q.enqueue(app: app, event: WebhookEvent(.channelVacated, channel: "a"), now: 0)
        #expect(q.tick(now: 2999, wallMillis: 0).isEmpty)
        let later = q.tick(now: 3000, wallMillis: 0)
        #expect(later.count == 1 && events(later[0]).first?["name"] == .string("channel_vacated"))
        // Coming back after the delay is an ordinary occupied event.
        q.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "a"), now: 4000)
        #expect(q.tick(now: 4050, wallMillis: 0).count == 1)
    }

    @Test func failuresAreRetriedWithBackoffThenAbandoned() {
        var q = WebhookQueue(batchWindow: 0, leaveDelay: 0, retryWindow: 10_000)
        q.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "a"), now: 0)
        var first = q.tick(now: 0, wallMillis: 0)
        #expect(first.count == 1)
        q.result(id: first[0].id, status: 500, now: 10)
        #expect(q.tick(now: 1009, wallMillis: 0).isEmpty)
        first = q.tick(now: 1010, wallMillis: 0)
        #expect(first.count == 1 && first[0].attempt == 2)
        q.result(id: first[0].id, status: nil, now: 1010)
        let third = q.tick(now: 3010, wallMillis: 0)
        #expect(third.count == 1 && third[0].attempt == 3)
        q.result(id: third[0].id, status: 200, now: 3010)
        #expect(q.nextDeadline == nil && q.abandoned == 0)
        // A permanently failing endpoint is given up after the retry window.
        q.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "b"), now: 20_000)
        var now: Int64 = 20_000
        while let deadline = q.nextDeadline {
            now = deadline
            for d in q.tick(now: now, wallMillis: 0) { q.result(id: d.id, status: 503, now: now) }
        }
        #expect(q.abandoned == 1 && now - 20_000 <= 10_000)
    }

    @Test func aSlowEndpointGetsAtMostItsShareOfRequestsAndOneGrowingBatch() {
        var twoHooks = app
        twoHooks.webhooks.append(WebhookConfig(url: WebhookURL("http://127.0.0.1:9/other")!))
        let slow = app.webhooks[0].url, other = twoHooks.webhooks[1].url
        var q = WebhookQueue(batchWindow: 0, maxInFlightPerEndpoint: 2)
        var sent: [WebhookDelivery] = []
        // Five batches, one per tick, and no endpoint answers yet.
        for t in 0..<5 {
            q.enqueue(app: twoHooks, event: WebhookEvent(.channelOccupied, channel: "c\(t)"), now: Int64(t))
            sent += q.tick(now: Int64(t), wallMillis: 0)
        }
        #expect(sent.count == 4)
        #expect(sent.filter { $0.url == slow }.count == 2 && sent.filter { $0.url == other }.count == 2)
        #expect(q.inFlight(app: twoHooks.id, url: slow) == 2)
        // The other three events wait per endpoint in one batch each; nothing is due meanwhile.
        #expect(q.count == 6)
        #expect(q.nextDeadline == nil)
        #expect(q.tick(now: 100, wallMillis: 0).isEmpty)

        // One answer to the slow endpoint frees a slot: its waiting batch goes out at once, whole.
        let firstSlow = sent.first { $0.url == slow }!
        q.result(id: firstSlow.id, status: 200, now: 200)
        #expect(q.nextDeadline.map { $0 <= 200 } == true)
        let next = q.tick(now: 200, wallMillis: 0)
        #expect(next.count == 1 && next[0].url == slow && next[0].attempt == 1)
        #expect(events(next[0]).map { $0["channel"] } == [.string("c2"), .string("c3"), .string("c4")])
        #expect(q.inFlight(app: twoHooks.id, url: slow) == 2)
        #expect(q.count == 3)
    }

    @Test func endpointFiltersAndAppsWithoutHooks() {
        var filtered = app
        filtered.webhooks = [WebhookConfig(url: WebhookURL("http://h/x")!, eventKinds: [.memberAdded], channelPrefix: "presence-")]
        var q = WebhookQueue(batchWindow: 0)
        q.enqueue(app: filtered, event: WebhookEvent(.memberAdded, channel: "presence-a", userID: "1"), now: 0)
        q.enqueue(app: filtered, event: WebhookEvent(.channelOccupied, channel: "presence-a"), now: 0)
        q.enqueue(app: filtered, event: WebhookEvent(.memberAdded, channel: "other", userID: "1"), now: 0)
        q.enqueue(app: testApp(), event: WebhookEvent(.channelOccupied, channel: "x"), now: 0)
        let out = q.tick(now: 0, wallMillis: 0)
        #expect(out.count == 1 && events(out[0]).count == 1)
    }

    @Test func clientEventJSON() {
        let e = WebhookEvent(
            .clientEvent, channel: "presence-a", userID: "u", event: "client-x", data: .object(["a": .int(1)]), socketID: "1.2")
        #expect(
            e.json
                == .object([
                    "name": .string("client_event"), "channel": .string("presence-a"), "event": .string("client-x"),
                    "data": .string(#"{"a":1}"#), "socket_id": .string("1.2"), "user_id": .string("u")
                ]))
    }

    @Test func webhookURLs() {
        #expect(WebhookURL("http://127.0.0.1:8080/a/b?c=d") == WebhookURL("http://127.0.0.1:8080/a/b?c=d"))
        #expect(WebhookURL("http://example.com")?.port == 80 && WebhookURL("http://example.com")?.path == "/")
        for bad in ["https://x/", "ftp://x", "http://", "http://x:0/", "http://x:70000/", "http://u@x/"] {
            #expect(WebhookURL(bad) == nil, "\(bad)")
        }
    }
}
