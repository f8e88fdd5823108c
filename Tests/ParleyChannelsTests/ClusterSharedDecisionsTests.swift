import ParleyChannelsTesting
import ParleyWire
import Testing

@testable import ParleyChannels

/// What the cluster decides as one: occupancy and member webhooks (once, by the store's
/// claims), `subscription_count`, and the connection and presence member limits.
@Suite struct ClusterSharedDecisionsTests {
    let clock = TestClock()
    let bus: MemoryClusterBus
    let app: AppConfig
    let config: ChannelsConfig
    let sink = RecordingSink()
    var nodes: [String: (hub: ClusterChannelHub, loop: ManualHubLoop)] = [:]
    var transports: [String: MemoryClusterBus.Transport] = [:]

    init() {
        var app = testApp()
        app.subscriptionCount = true
        app.limits.maxConnections = 3
        app.limits.maxPresenceMembers = 2
        app.webhooks = [WebhookConfig(url: WebhookURL("http://127.0.0.1:9/hook")!)]
        self.app = app
        config = ChannelsConfig(apps: [app])
        bus = MemoryClusterBus(clock: clock)
        for name in ["a", "b", "c"] {
            let loop = ManualHubLoop()
            let local = LocalChannelHub(loops: [loop], clock: clock.read, webhooks: sink)
            let transport = bus.transport(name)
            let hub = ClusterChannelHub(local: local, nodeID: name, transport: transport, apps: AppRegistry(config), clock: clock.read)
            hub.start()
            nodes[name] = (hub, loop)
            transports[name] = transport
        }
        settle()
    }

    func hub(_ node: String) -> ClusterChannelHub { nodes[node]!.hub }

    func settle() {
        for _ in 0..<5 {
            bus.deliver()
            for node in nodes.values { node.loop.runPending() }
        }
    }

    func session(_ node: String, socket: String) -> (PusherSession, FakeTransport) {
        let transport = FakeTransport()
        let s = PusherSession(
            app: app, config: config, loopIndex: 0, hub: hub(node), transport: transport,
            webhooks: nil, metrics: ChannelsMetrics(), now: clock.now, socketID: PusherSocketID(socket)!)
        s.start()
        return (s, transport)
    }

    func joinPresence(_ s: PusherSession, user: String, channel: String = "presence-room") {
        let data = "{\"user_id\":\"\(user)\",\"user_info\":{\"name\":\"\(user)\"}}"
        let auth = PusherSignature.channelAuth(key: app.key, secret: app.secret, socketID: s.socketID, channel: channel, channelData: data)
        s.receiveText(subscribeMessage(channel, auth: auth, channelData: data), now: clock.now)
    }

    func leave(_ s: PusherSession, _ channel: String) {
        s.receiveText(bytes("{\"event\":\"pusher:unsubscribe\",\"data\":{\"channel\":\"\(channel)\"}}"), now: clock.now)
    }

    func hooks(_ kind: WebhookEventKind) -> [WebhookEvent] { sink.events.filter { $0.kind == kind } }

    @Test func occupancyAndMemberWebhooksFireOncePerClusterChange() {
        let a = session("a", socket: "1.1"), b = session("b", socket: "2.2"), c = session("c", socket: "3.3")
        joinPresence(a.0, user: "ann")
        joinPresence(b.0, user: "ann")
        joinPresence(c.0, user: "bob")
        settle()
        #expect(hooks(.channelOccupied).count == 1)
        #expect(hooks(.memberAdded).map(\.userID) == ["ann", "bob"])
        leave(a.0, "presence-room")
        settle()
        #expect(hooks(.memberRemoved).isEmpty)  // ann is still here through b
        leave(b.0, "presence-room")
        leave(c.0, "presence-room")
        settle()
        #expect(hooks(.memberRemoved).compactMap(\.userID).sorted() == ["ann", "bob"])
        #expect(hooks(.channelVacated).count == 1)
    }

    func succeeded(_ client: FakeTransport, _ channel: String) -> Bool {
        client.events("pusher_internal:subscription_succeeded").contains { $0.channel == channel }
    }

    @Test func anArrivalAnsweredBeforeTheLastLeaveElsewhereKeepsTheChannelOccupied() {
        let a = session("a", socket: "1.1"), b = session("b", socket: "2.2")
        a.0.receiveText(subscribeMessage("plain"), now: clock.now)
        settle()
        #expect(hooks(.channelOccupied).count == 1)
        // Node b's claim is slow to reach the store; its client's next step waits for its
        // answer (a client closing the other connection once it saw subscription_succeeded).
        transports["b"]!.holdingClaims = true
        b.0.receiveText(subscribeMessage("plain"), now: clock.now)
        settle()
        if !succeeded(b.1, "plain") {
            transports["b"]!.releaseClaims()
            settle()
        }
        #expect(succeeded(b.1, "plain"))
        leave(a.0, "plain")
        transports["b"]!.holdingClaims = false
        transports["b"]!.releaseClaims()
        settle()
        #expect(hooks(.channelOccupied).count == 1)
        #expect(hooks(.channelVacated).isEmpty)
        leave(b.0, "plain")
        settle()
        #expect(hooks(.channelVacated).count == 1)
    }

    @Test func aMemberAnsweredOnOneNodeStaysWhenTheirConnectionOnAnotherLeaves() {
        let a = session("a", socket: "1.1"), b = session("b", socket: "2.2")
        joinPresence(a.0, user: "ann")
        settle()
        transports["b"]!.holdingClaims = true
        joinPresence(b.0, user: "ann")
        settle()
        if !succeeded(b.1, "presence-room") {
            transports["b"]!.releaseClaims()
            settle()
        }
        #expect(succeeded(b.1, "presence-room"))
        leave(a.0, "presence-room")
        transports["b"]!.releaseClaims()
        settle()
        #expect(hooks(.memberAdded).map(\.userID) == ["ann"])
        #expect(hooks(.memberRemoved).isEmpty)
        #expect(hooks(.channelVacated).isEmpty)
    }

    @Test func anAnswerWaitsForItsClaimAndTellsWhatChangedMeanwhile() {
        let here = session("b", socket: "2.1"), later = session("b", socket: "2.2")
        let elsewhere = session("a", socket: "1.1")
        transports["b"]!.holdingClaims = true
        joinPresence(here.0, user: "bo")
        settle()
        #expect(!succeeded(here.1, "presence-room"))
        joinPresence(later.0, user: "cy")
        joinPresence(elsewhere.0, user: "al")
        settle()
        #expect(!succeeded(later.1, "presence-room"))
        #expect(here.1.events("pusher_internal:member_added").isEmpty)  // no event before its answer
        transports["b"]!.releaseClaims()
        settle()
        let answer = here.1.events("pusher_internal:subscription_succeeded").first
        let members = answer?.data?.stringValue.flatMap { try? JSONParser.parse(Array($0.utf8)) }
        let ids: JSONValue = .array([.string("bo"), .string("cy"), .string("al")])
        #expect(members?.objectValue?["presence"]?.objectValue?["ids"] == ids)
        #expect(succeeded(later.1, "presence-room"))
        #expect(hooks(.memberAdded).map(\.userID) == ["al", "bo", "cy"])
    }

    @Test func anAnswerNeverAcknowledgedGoesAfterItsBound() {
        let b = session("b", socket: "2.2")
        transports["b"]!.holdingClaims = true
        b.0.receiveText(subscribeMessage("counted"), now: clock.now)
        settle()
        #expect(!succeeded(b.1, "counted"))
        clock.now += LocalChannelHub.claimWaitMilliseconds
        hub("b").local.tick(apps: AppRegistry(config))
        settle()
        #expect(succeeded(b.1, "counted"))
        // The count sent when it was admitted did not reach it: it comes with the answer.
        #expect(b.1.events("pusher_internal:subscription_count").map(\.data) == [.string("{\"subscription_count\":1}")])
    }

    @Test func aDeadNodesChannelsAndMembersAreReportedGoneOnce() {
        let watcher = session("c", socket: "3.3")
        joinPresence(watcher.0, user: "w")
        let doomed = session("a", socket: "1.1")
        joinPresence(doomed.0, user: "u")
        doomed.0.receiveText(subscribeMessage("only-on-a"), now: clock.now)
        settle()
        // Node a dies: it hears nothing more and, never ticking again, stores no more shares.
        bus.handlers["a"] = nil
        var waited: Int64 = 0
        while hooks(.channelVacated).isEmpty, waited <= hub("c").timings.deadNodeBound {
            clock.now += 1_000
            waited += 1_000
            hub("b").tick()
            hub("c").tick()
            settle()
        }
        #expect(hooks(.channelVacated).map(\.channel) == ["only-on-a"])
        #expect(hooks(.memberRemoved).map(\.userID) == ["u"])
    }

    @Test func subscriptionCountIsTheClusters() {
        let a = session("a", socket: "1.1"), b = session("b", socket: "2.2")
        a.0.receiveText(subscribeMessage("counted"), now: clock.now)
        settle()
        b.0.receiveText(subscribeMessage("counted"), now: clock.now)
        settle()
        let counts = a.1.events("pusher_internal:subscription_count").map(\.data)
        #expect(counts.last == .string("{\"subscription_count\":2}"))
        #expect(b.1.events("pusher_internal:subscription_count").last?.data == .string("{\"subscription_count\":2}"))
        // The webhook comes from the node the change was made on, once.
        #expect(hooks(.subscriptionCount).map(\.subscriptionCount) == [1, 2])
    }

    @Test func theConnectionLimitCountsOtherNodesOnceTheyShared() {
        _ = session("a", socket: "1.1")
        _ = session("a", socket: "1.2")
        _ = session("b", socket: "2.1")
        for node in ["a", "b", "c"] { hub(node).tick() }
        settle()
        let refused = session("c", socket: "3.1")
        #expect(refused.1.closedWith == 4004)
    }

    @Test func maxPresenceMembersCountsMembersOnOtherNodes() {
        joinPresence(session("a", socket: "1.1").0, user: "u1")
        joinPresence(session("b", socket: "2.1").0, user: "u2")
        settle()
        let late = session("c", socket: "3.1")
        joinPresence(late.0, user: "u3")
        #expect(late.1.events("pusher:subscription_error").count == 1)
        let returning = session("c", socket: "3.2")
        joinPresence(returning.0, user: "u1")
        #expect(returning.1.events("pusher_internal:subscription_succeeded").count == 1)
    }
}
