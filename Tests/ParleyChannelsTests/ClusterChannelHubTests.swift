import ParleyChannelsTesting
import ParleyWire
import Testing

@testable import ParleyChannels

/// Several nodes, each a local hub on its own manual loop, joined by an in-memory bus.
@Suite struct ClusterChannelHubTests {
    let app = testApp()
    let clock = TestClock()
    let bus: MemoryClusterBus
    let config = ChannelsConfig(apps: [testApp()])
    var nodes: [String: (hub: ClusterChannelHub, loop: ManualHubLoop, transport: MemoryClusterBus.Transport)] = [:]

    init() {
        bus = MemoryClusterBus(clock: clock)
        for name in ["a", "b", "c"] {
            let loop = ManualHubLoop()
            let local = LocalChannelHub(loops: [loop], clock: clock.read)
            let transport = bus.transport(name)
            let hub = ClusterChannelHub(local: local, nodeID: name, transport: transport, apps: AppRegistry(config), clock: clock.read)
            hub.start()
            nodes[name] = (hub, loop, transport)
        }
        settle()
    }

    func hub(_ node: String) -> ClusterChannelHub { nodes[node]!.hub }

    /// Runs the bus and every loop until nothing is left to do.
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

    func publish(_ node: String, _ channel: String, _ n: Int, excluding: String? = nil) {
        hub(node).publish(app: app, events: [HubEvent(channel: channel, event: "tick", data: .string("\(n)"), excluding: excluding)])
    }

    @Test func eventsReachEverySubscriberOnEveryNodeOnceInOrderWithExclusion() {
        let a = session("a", socket: "1.1"), b = session("b", socket: "2.2"), c = session("c", socket: "3.3")
        for (s, _) in [a, b, c] { s.receiveText(subscribeMessage("feed"), now: clock.now) }
        settle()
        for i in 0..<5 { publish("a", "feed", i, excluding: i == 4 ? "3.3" : nil) }
        settle()
        #expect(a.1.events("tick").map(\.data) == (0..<5).map { .string("\($0)") })
        #expect(b.1.events("tick").map(\.data) == (0..<5).map { .string("\($0)") })
        #expect(c.1.events("tick").map(\.data) == (0..<4).map { .string("\($0)") })
        // One bus message per publish, not per subscriber or node.
        let before = bus.broadcasts
        publish("b", "feed", 9)
        #expect(bus.broadcasts == before + 1)
    }

    @Test func eventsNobodyElsewhereListensToStayHome() {
        let a = session("a", socket: "1.1")
        a.0.receiveText(subscribeMessage("feed"), now: clock.now)
        settle()
        let before = bus.broadcasts
        publish("a", "feed", 1)
        publish("b", "nobody", 1)
        #expect(bus.broadcasts == before)
        #expect(hub("b").hasSubscribers(app: app, channels: ["feed", "nobody"]) == [true, false])
    }

    @Test func clientEventsCrossNodesAndAreNeverEchoed() {
        let a = session("a", socket: "1.1"), b = session("b", socket: "2.2")
        for (s, _) in [a, b] {
            let auth = PusherSignature.channelAuth(key: app.key, secret: app.secret, socketID: s.socketID, channel: "private-chat")
            s.receiveText(subscribeMessage("private-chat", auth: auth), now: clock.now)
        }
        settle()
        hub("a").publish(
            app: app, events: [HubEvent(channel: "private-chat", event: "client-typing", data: .string("x"), excluding: "1.1")])
        settle()
        #expect(b.1.events("client-typing").count == 1)
        #expect(a.1.events("client-typing").isEmpty)
    }

    @Test func aUserOnTwoNodesIsOneMemberAddedAndRemovedOnce() {
        let watcher = session("c", socket: "3.3")
        joinPresence(watcher.0, user: "w")
        settle()
        let first = session("a", socket: "1.1"), second = session("b", socket: "2.2")
        joinPresence(first.0, user: "u")
        settle()
        joinPresence(second.0, user: "u")
        settle()
        #expect(watcher.1.events("pusher_internal:member_added").count == 1)
        #expect(first.1.events("pusher_internal:member_added").isEmpty)
        // The second connection's member list is the cluster's: w and u once each.
        let succeeded = second.1.events("pusher_internal:subscription_succeeded").first
        let data = succeeded?.data?.stringValue.flatMap { try? JSONParser.parse(Array($0.utf8)) } ?? succeeded?.data
        let ids = data?.objectValue?["presence"]?.objectValue?["ids"]?.arrayValue?.compactMap(\.stringValue)
        #expect(Set(ids ?? []) == ["w", "u"])
        #expect(ids?.count == 2)
        #expect(hub("a").snapshot(app: app, channel: "presence-room").userCount == 2)
        #expect(hub("a").snapshot(app: app, channel: "presence-room").subscriptionCount == 3)
        leave(first.0, "presence-room")
        settle()
        #expect(watcher.1.events("pusher_internal:member_removed").isEmpty)
        leave(second.0, "presence-room")
        settle()
        #expect(watcher.1.events("pusher_internal:member_removed").count == 1)
        #expect(hub("c").presenceUsers(app: app, channel: "presence-room") == ["w"])
    }

    @Test func aDeadNodesMembersAreRemovedOnceWhenItsShareLapses() {
        let watcher = session("c", socket: "3.3")
        joinPresence(watcher.0, user: "w")
        let doomed = session("a", socket: "1.1")
        joinPresence(doomed.0, user: "u")
        settle()
        #expect(watcher.1.events("pusher_internal:member_added").count == 1)
        // Node a dies: it stops storing its share and sending.
        nodes["a"]!.transport.storing = false
        bus.handlers["a"] = nil
        let timings = hub("c").timings
        var waited: Int64 = 0
        while watcher.1.events("pusher_internal:member_removed").isEmpty, waited <= timings.deadNodeBound {
            clock.now += 1_000
            waited += 1_000
            hub("b").tick()
            hub("c").tick()
            settle()
        }
        #expect(watcher.1.events("pusher_internal:member_removed").count == 1)
        #expect(waited <= timings.deadNodeBound)
        #expect(hub("c").snapshot(app: app, channel: "presence-room").subscriptionCount == 1)
        #expect(hub("b").occupiedChannels(app: app, prefix: nil) == ["presence-room"])
    }

    @Test func aNodeThatMissedDeltasCatchesUpFromTheStoredShares() {
        bus.down = true
        let late = session("a", socket: "1.1")
        late.0.receiveText(subscribeMessage("feed"), now: clock.now)
        settle()
        #expect(hub("b").hasSubscribers(app: app, channels: ["feed"]) == [false])
        bus.down = false
        clock.now += hub("b").timings.sweepInterval
        hub("a").tick()
        hub("b").tick()
        settle()
        #expect(hub("b").hasSubscribers(app: app, channels: ["feed"]) == [true])
        #expect(hub("b").occupiedChannels(app: app, prefix: "fe") == ["feed"])
    }

    @Test func cacheChannelsRememberTheClustersLastEvent() {
        publish("a", "cache-news", 7)
        settle()
        let s = session("b", socket: "2.2")
        s.0.receiveText(subscribeMessage("cache-news"), now: clock.now)
        #expect(s.1.events("tick").map(\.data) == [.string("7")])
    }

    @Test func aNodeStartedLaterReplaysTheClustersLastCacheEvent() {
        publish("a", "cache-news", 7)
        publish("b", "cache-news", 8)
        settle()
        let loop = ManualHubLoop()
        let late = ClusterChannelHub(
            local: LocalChannelHub(loops: [loop], clock: clock.read), nodeID: "d", transport: bus.transport("d"),
            apps: AppRegistry(config), clock: clock.read)
        late.start()
        let transport = FakeTransport()
        let s = PusherSession(
            app: app, config: config, loopIndex: 0, hub: late, transport: transport,
            webhooks: nil, metrics: ChannelsMetrics(), now: clock.now, socketID: PusherSocketID("4.4")!)
        s.start()
        s.receiveText(subscribeMessage("cache-news"), now: clock.now)
        loop.runPending()
        #expect(transport.events("tick").map(\.data) == [.string("8")])
    }

    @Test func terminateClosesTheUsersConnectionsOnEveryNode() {
        let b = session("b", socket: "2.2")
        let data = #"{"id":"u"}"#
        let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: "2.2", userData: data)
        b.0.receiveText(
            bytes("{\"event\":\"pusher:signin\",\"data\":{\"auth\":\"\(auth)\",\"user_data\":\(String(reflecting: data))}}"), now: clock.now
        )
        settle()
        hub("a").terminateUser(app: app, userID: "u")
        settle()
        #expect(b.1.closedWith == 4009)
    }

    @Test func envelopesRoundTripAndJunkIsRefused() {
        let messages: [ClusterMessage] = [
            .events(
                app: "3",
                [
                    ClusterEvent(channel: "c", event: "e", frame: [1, 2], excluding: "1.2", cacheData: nil),
                    ClusterEvent(channel: "cache-x", event: "e", frame: [], excluding: nil, cacheData: Array("{}".utf8))
                ]),
            .share(
                ClusterShareUpdate(
                    seq: 9, full: true,
                    changes: [
                        .count(app: "3", channel: "c", 4),
                        .member(app: "3", channel: "presence-p", user: "u", info: nil)
                    ])),
            .terminate(app: "3", user: "u"),
            .notice(topic: "chat", payload: Array("x".utf8))
        ]
        for message in messages {
            let envelope = ClusterEnvelope(node: "n", boot: 42, message: message)
            let encoded = envelope.encoded()
            #expect(ClusterEnvelope(decoding: encoded) == envelope)
            #expect(ClusterEnvelope(decoding: Array(encoded.dropLast())) == nil)
            #expect(ClusterEnvelope(decoding: encoded + [0]) == nil)
        }
        #expect(ClusterEnvelope(decoding: [2, 0, 0, 0, 0]) == nil)
        #expect(ClusterEnvelope(decoding: []) == nil)
    }
}
