import ParleyChannelsTesting
import ParleyWire
import Testing

@testable import ParleyChannels

@Suite struct ChannelsServiceTests {
    let loop = ManualHubLoop()
    let service: ChannelsService

    init() {
        var disabled = AppConfig(id: "2", key: "off-key", secret: "s")
        disabled.enabled = false
        service = ChannelsService(
            config: ChannelsConfig(apps: [.development, disabled]), loops: [loop], clock: { 0 }, wallClock: { 1_700_000_000_000 })
    }

    func open(_ path: String, _ query: String = "protocol=7&client=js&version=8.4.0") -> (PusherSession?, FakeTransport) {
        let t = FakeTransport()
        return (service.openSession(path: path, query: PusherQuery(parsing: Substring(query)), transport: t, loopIndex: 0), t)
    }

    @Test func opensSessionsForKnownKeys() {
        let (session, t) = open("/app/dev-key")
        #expect(session != nil && t.closedWith == nil)
        #expect(t.messages.first?.event == "pusher:connection_established")
        let (pysher, _) = open("/app/dev-key", "protocol=6&client=pysher&version=1.0.8")
        #expect(pysher != nil)
    }

    @Test(arguments: [
        ("/app/nope", "protocol=7", 4001), ("/app/off-key", "protocol=7", 4003), ("/app/dev-key", "protocol=3", 4007),
        ("/app/dev-key", "", 4008), ("/other", "protocol=7", 4005)
    ])
    func refusesWithTheSpecCodes(path: String, query: String, code: Int) {
        let (session, t) = open(path, query)
        #expect(session == nil)
        #expect(t.closedWith == code)
        #expect(t.messages.first?.event == "pusher:error" && t.messages.first?.data?["code"] == .int(code))
    }

    @Test func metricsAreRendered() {
        let (session, _) = open("/app/dev-key")
        session?.receiveText(subscribeMessage("collabo"), now: 0)
        let text = service.metricsText()
        #expect(text.contains("parley_channels_connections{app=\"1\"} 1\n"))
        #expect(text.contains("parley_channels_subscriptions{app=\"1\"} 1\n"))
        #expect(text.contains("parley_channels_channels{app=\"1\"} 1\n"))
        #expect(text.contains("# TYPE parley_channels_messages_in_total counter"))
    }
}

/// `/metrics` of the channels service split by app.
@Suite struct ChannelsMetricsByAppTests {
    let loop = ManualHubLoop()
    let service: ChannelsService

    init() {
        service = ChannelsService(
            config: ChannelsConfig(apps: [
                AppConfig(id: "a", key: "key-a", secret: "s"),
                AppConfig(id: "b\"q", key: "key-b", secret: "s")
            ]),
            loops: [loop], clock: { 0 }, wallClock: { 1_700_000_000_000 })
    }

    func open(_ key: String) -> PusherSession? {
        service.openSession(path: "/app/\(key)", query: PusherQuery(parsing: "protocol=7"), transport: FakeTransport(), loopIndex: 0)
    }

    @Test func everyAppGetsItsOwnSamplesAndTheySumToTheTotal() throws {
        let sessions = [open("key-a"), open("key-a"), open("key-b")]
        #expect(sessions.allSatisfy { $0 != nil })
        _ = service.handleAPI(PusherAPIRequest(method: "GET", target: "/apps/nope/channels?auth_key=x"))
        let text = service.metricsText()
        #expect(text.contains("parley_channels_connections{app=\"a\"} 2\n"))
        // A label value is escaped as the text format requires.
        #expect(text.contains("parley_channels_connections{app=\"b\\\"q\"} 1\n"))
        // The request naming no hosted app is counted without the label, not under an app.
        #expect(text.contains("parley_channels_api_requests_total 1\n"))
        #expect(text.contains("parley_channels_api_requests_total{app=\"a\"} 0\n"))
        #expect(service.metrics.totals().connections == 3)
        #expect(service.metrics.totals().apiErrors == 1)
    }

    @Test func anAppWithoutTrafficStillHasItsSeries() {
        let text = service.metricsText()
        #expect(text.contains("parley_channels_messages_in_total{app=\"a\"} 0\n"))
        #expect(text.contains("parley_channels_messages_in_total{app=\"b\\\"q\"} 0\n"))
    }
}
