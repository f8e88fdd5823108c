import ParleyChannelsTesting
import ParleyWire
import Testing

@testable import ParleyChannels

/// Sessions over a local hub with two manual loops: fan-out, presence, users, slow consumers.
@Suite struct HubSessionTests {
    let app = testApp()
    let loops = [ManualHubLoop(), ManualHubLoop()]
    let clock = TestClock()
    let sink = RecordingSink()
    let hub: LocalChannelHub
    let config = ChannelsConfig(apps: [testApp()])

    init() {
        hub = LocalChannelHub(loops: loops, clock: clock.read, webhooks: sink)
    }

    func session(loop: Int, socket: String, app: AppConfig? = nil, maxOutbound: Int? = nil) -> (PusherSession, FakeTransport) {
        let transport = FakeTransport()
        var config = self.config
        if let maxOutbound { config.maxOutboundBytes = maxOutbound }
        let s = PusherSession(
            app: app ?? self.app, config: config, loopIndex: loop, hub: hub, transport: transport,
            webhooks: sink, metrics: hub.metrics, now: clock.now, socketID: PusherSocketID(socket)!)
        s.start()
        return (s, transport)
    }

    func run() { for loop in loops { loop.runPending() } }

    func joinPresence(_ s: PusherSession, user: String, channel: String = "presence-room") {
        let data = "{\"user_id\":\"\(user)\",\"user_info\":{\"name\":\"\(user)\"}}"
        let auth = PusherSignature.channelAuth(key: app.key, secret: app.secret, socketID: s.socketID, channel: channel, channelData: data)
        s.receiveText(subscribeMessage(channel, auth: auth, channelData: data), now: clock.now)
    }

    func joinPrivate(_ s: PusherSession, _ channel: String) {
        let auth = PusherSignature.channelAuth(key: app.key, secret: app.secret, socketID: s.socketID, channel: channel)
        s.receiveText(subscribeMessage(channel, auth: auth), now: clock.now)
    }

    @Test func publishReachesSubscribersOnEveryLoopInOrderWithExclusion() {
        let a = session(loop: 0, socket: "1.1"), b = session(loop: 1, socket: "2.2"), c = session(loop: 1, socket: "3.3")
        for (s, _) in [a, b, c] { s.receiveText(subscribeMessage("collabo"), now: clock.now) }
        for i in 0..<5 {
            hub.publish(
                app: app,
                events: [HubEvent(channel: "collabo", event: "text_update", data: .string("{\"n\":\(i)}"), excluding: i == 4 ? "2.2" : nil)]
            )
        }
        run()
        for (_, t) in [a, c] {
            #expect(t.events("text_update").map { $0.data?.stringValue } == (0..<5).map { "{\"n\":\($0)}" })
        }
        #expect(b.1.events("text_update").count == 4)
        #expect(a.1.events("pusher_internal:subscription_succeeded").count == 1)
    }

    @Test func hubKnowsWhichChannelsHaveSubscribersOnAnyLoop() {
        #expect(hub.hasSubscribers(app: app, channels: ["feed", "news"]) == [false, false])
        let a = session(loop: 0, socket: "1.1"), b = session(loop: 1, socket: "2.2")
        a.0.receiveText(subscribeMessage("feed"), now: clock.now)
        b.0.receiveText(subscribeMessage("feed"), now: clock.now)
        b.0.receiveText(subscribeMessage("news"), now: clock.now)
        // Known at once, before the loops ran the registrations.
        #expect(hub.hasSubscribers(app: app, channels: ["feed", "news", "other"]) == [true, true, false])
        #expect(hub.hasSubscribers(app: testApp(id: "4"), channels: ["feed"]) == [false])
        run()
        b.0.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"news"}}"#), now: clock.now)
        a.0.transportClosed()
        #expect(hub.hasSubscribers(app: app, channels: ["feed", "news"]) == [true, false])
        b.0.transportClosed()
        #expect(hub.hasSubscribers(app: app, channels: ["feed"]) == [false])
    }

    @Test func fanOutSurvivesLeavingSubscribersAndIsCountedOnce() {
        let subs = (1...4).map { session(loop: $0 % 2, socket: "\($0).\($0)") }
        for (s, _) in subs { s.receiveText(subscribeMessage("feed"), now: clock.now) }
        run()
        // The first subscriber leaves: the last one moves into its place in the loop's list.
        subs[0].0.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"feed"}}"#), now: clock.now)
        run()
        for i in 0..<3 {
            hub.publish(
                app: app, events: [HubEvent(channel: "feed", event: "tick", data: .string("\(i)"), excluding: i == 2 ? "3.3" : nil)])
        }
        run()
        #expect(subs.map { $0.1.events("tick").count } == [0, 3, 2, 3])
        #expect(subs[3].1.events("tick").map { $0.data?.stringValue } == ["0", "1", "2"])
        // Every frame a client got is counted once in the outbound counters, whichever path sent it.
        let frames = subs.flatMap(\.1.frames)
        #expect(hub.metrics.totals().messagesOut == frames.count)
        #expect(hub.metrics.totals().bytesOut == frames.reduce(0) { $0 + $1.count })
    }

    @Test func presenceMembershipIsGlobalAcrossLoops() throws {
        let a = session(loop: 0, socket: "1.1"), b = session(loop: 1, socket: "2.2"), b2 = session(loop: 0, socket: "2.3")
        joinPresence(a.0, user: "alice")
        joinPresence(b.0, user: "bob")
        run()
        let bobSucceeded = try #require(b.1.events("pusher_internal:subscription_succeeded").first?.dataObject?["presence"])
        #expect(bobSucceeded["ids"] == .array([.string("alice"), .string("bob")]) && bobSucceeded["count"] == .int(2))
        #expect(a.1.events("pusher_internal:member_added").map { $0.dataObject?["user_id"] } == [.string("bob")])
        #expect(b.1.events("pusher_internal:member_added").isEmpty)  // never told about itself
        // Bob's second connection: no second member_added.
        joinPresence(b2.0, user: "bob")
        run()
        #expect(a.1.events("pusher_internal:member_added").count == 1)
        #expect(hub.presenceUsers(app: app, channel: "presence-room") == ["alice", "bob"])
        // Bob's first connection leaves: still a member; the last one disconnects: removed.
        b.0.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"presence-room"}}"#), now: clock.now)
        run()
        #expect(a.1.events("pusher_internal:member_removed").isEmpty)
        b2.0.transportClosed()
        run()
        #expect(a.1.events("pusher_internal:member_removed").map { $0.dataObject?["user_id"] } == [.string("bob")])
        #expect(hub.snapshot(app: app, channel: "presence-room").userCount == 1)
        #expect(sink.events.filter { $0.kind == .memberAdded }.map(\.userID) == ["alice", "bob"])
        #expect(sink.events.filter { $0.kind == .memberRemoved }.map(\.userID) == ["bob"])
    }

    @Test func presenceChannelFullIsRefused() {
        var small = app
        small.limits.maxPresenceMembers = 1
        let a = session(loop: 0, socket: "1.1", app: small), b = session(loop: 1, socket: "2.2", app: small)
        joinPresence(a.0, user: "alice")
        joinPresence(b.0, user: "bob")
        #expect(b.1.events("pusher:subscription_error").first?.data?["status"] == .int(403))
        #expect(hub.presenceUsers(app: small, channel: "presence-room") == ["alice"])
    }

    @Test func clientEventsGoToOthersNeverEchoed() {
        let a = session(loop: 0, socket: "1.1"), b = session(loop: 1, socket: "2.2"), c = session(loop: 0, socket: "3.3")
        joinPresence(a.0, user: "alice"); joinPresence(b.0, user: "bob"); joinPresence(c.0, user: "carol")
        a.0.receiveText(bytes(#"{"event":"client-typing","channel":"presence-room","data":{"t":1}}"#), now: clock.now)
        run()
        #expect(a.1.events("client-typing").isEmpty)
        for t in [b.1, c.1] {
            let m = t.events("client-typing")
            #expect(m.count == 1 && m.first?.userID == "alice" && m.first?.data == .object(["t": .int(1)]))
        }
        let hook = sink.events.first { $0.kind == .clientEvent }
        #expect(hook?.socketID == "1.1" && hook?.userID == "alice" && hook?.event == "client-typing")
    }

    @Test func slowSubscriberIsClosed4100OthersUnaffected() {
        let slow = session(loop: 0, socket: "1.1", maxOutbound: 4096), fast = session(loop: 1, socket: "2.2")
        slow.0.receiveText(subscribeMessage("feed"), now: clock.now)
        fast.0.receiveText(subscribeMessage("feed"), now: clock.now)
        slow.1.countsTowardsQueue = true  // never drained: the client stopped reading
        for i in 0..<100 {
            hub.publish(
                app: app, events: [HubEvent(channel: "feed", event: "tick", data: .string(String(repeating: "x", count: 100) + "\(i)"))])
        }
        run()
        #expect(slow.1.closedWith == 4100)
        #expect(slow.1.events("pusher:error").last?.data?["code"] == .int(4100))
        #expect(slow.1.queued <= 4096 + 512)
        #expect(fast.1.events("tick").count == 100)
        #expect(hub.metrics.totals().slowConsumersDropped == 1)
        #expect(hub.snapshot(app: app, channel: "feed").subscriptionCount == 1)
    }

    @Test func terminateUserClosesOnlyThatUsersConnections() {
        let a = session(loop: 0, socket: "1.1"), a2 = session(loop: 1, socket: "1.2"), b = session(loop: 1, socket: "2.2")
        for (s, id) in [(a.0, "u1"), (a2.0, "u1"), (b.0, "u2")] {
            let data = "{\"id\":\"\(id)\"}"
            let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: s.socketID, userData: data)
            s.receiveText(
                PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(data)])).serialized(),
                now: clock.now)
        }
        hub.terminateUser(app: app, userID: "u1")
        run()
        #expect(a.1.closedWith == 4009 && a2.1.closedWith == 4009 && b.1.closedWith == nil)
        #expect(a.1.events("pusher:error").last?.data?["code"] == .int(4009))
    }

    @Test func serverToUserReachesEverySignedInConnection() {
        let a = session(loop: 0, socket: "1.1"), a2 = session(loop: 1, socket: "1.2")
        for s in [a.0, a2.0] {
            let data = #"{"id":"u1"}"#
            let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: s.socketID, userData: data)
            s.receiveText(
                PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(data)])).serialized(),
                now: clock.now)
            s.receiveText(subscribeMessage("#server-to-user-u1", auth: ""), now: clock.now)
        }
        hub.publish(app: app, events: [HubEvent(channel: "#server-to-user-u1", event: "notify", data: .string("hi"))])
        run()
        #expect(a.1.events("notify").count == 1 && a2.1.events("notify").count == 1)
    }

    @Test func watchlistOnlineOffline() throws {
        let watcher = session(loop: 0, socket: "1.1"), friend = session(loop: 1, socket: "2.2")
        func signin(_ s: PusherSession, _ data: String) {
            let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: s.socketID, userData: data)
            s.receiveText(
                PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(data)])).serialized(),
                now: clock.now)
        }
        signin(watcher.0, #"{"id":"w","watchlist":["f","g"]}"#)
        run()
        let initial = try #require(watcher.1.events("pusher_internal:watchlist_events").first?.dataObject?["events"])
        #expect(initial == .array([.object(["name": .string("offline"), "user_ids": .array([.string("f"), .string("g")])])]))
        signin(friend.0, #"{"id":"f"}"#)
        run()
        friend.0.transportClosed()
        run()
        let changes = watcher.1.events("pusher_internal:watchlist_events").dropFirst().map {
            $0.dataObject?["events"]?.arrayValue?.first?["name"]
        }
        #expect(changes == [.string("online"), .string("offline")])
    }

    @Test func cacheChannelReplaysLastEvent() {
        let a = session(loop: 0, socket: "1.1")
        a.0.receiveText(subscribeMessage("cache-news"), now: clock.now)
        #expect(a.1.events("pusher:cache_miss").count == 1)
        #expect(sink.events.contains { $0.kind == .cacheMiss && $0.channel == "cache-news" })
        hub.publish(app: app, events: [HubEvent(channel: "cache-news", event: "headline", data: .string("one"))])
        hub.publish(app: app, events: [HubEvent(channel: "cache-news", event: "headline", data: .string("two"))])
        run()
        let b = session(loop: 1, socket: "2.2")
        b.0.receiveText(subscribeMessage("cache-news"), now: clock.now)
        #expect(b.1.messages.map(\.event) == ["pusher:connection_established", "pusher_internal:subscription_succeeded", "headline"])
        #expect(b.1.events("headline").first?.data == .string("two"))
        #expect(hub.snapshot(app: app, channel: "cache-news").cache?.data == .string("two"))
        clock.now += ChannelDirectory.cacheLifetime
        let c = session(loop: 1, socket: "3.3")
        c.0.receiveText(subscribeMessage("cache-news"), now: clock.now)
        #expect(c.1.events("pusher:cache_miss").count == 1)
    }

    @Test func subscriptionCountWhenEnabled() {
        var counted = app
        counted.subscriptionCount = true
        let a = session(loop: 0, socket: "1.1", app: counted), b = session(loop: 1, socket: "2.2", app: counted)
        a.0.receiveText(subscribeMessage("room"), now: clock.now)
        run()
        b.0.receiveText(subscribeMessage("room"), now: clock.now)
        run()
        let counts = a.1.events("pusher_internal:subscription_count").map { $0.dataObject?["subscription_count"] }
        #expect(counts == [.int(1), .int(2)])
        #expect(b.1.events("pusher_internal:subscription_count").map { $0.dataObject?["subscription_count"] } == [.int(2)])
    }

    @Test func connectionQuotaAndDisabledApp() {
        var limited = app
        limited.limits.maxConnections = 1
        let a = session(loop: 0, socket: "1.1", app: limited)
        let b = session(loop: 0, socket: "2.2", app: limited)
        #expect(a.1.closedWith == nil && b.1.closedWith == 4004)
        a.0.transportClosed()
        let c = session(loop: 0, socket: "3.3", app: limited)
        #expect(c.1.closedWith == nil)
        var disabled = app
        disabled.enabled = false
        let d = session(loop: 0, socket: "4.4", app: disabled)
        #expect(d.1.closedWith == 4003 && d.1.events("pusher:error").first?.data?["code"] == .int(4003))
    }

    @Test func occupiedWebhooksAndChannelList() {
        let a = session(loop: 0, socket: "1.1")
        a.0.receiveText(subscribeMessage("alpha"), now: clock.now)
        a.0.receiveText(subscribeMessage("beta"), now: clock.now)
        #expect(hub.occupiedChannels(app: app, prefix: nil) == ["alpha", "beta"])
        #expect(hub.occupiedChannels(app: app, prefix: "b") == ["beta"])
        a.0.transportClosed()
        #expect(hub.occupiedChannels(app: app, prefix: nil).isEmpty)
        #expect(sink.events.map(\.kind) == [.channelOccupied, .channelOccupied, .channelVacated, .channelVacated])
        #expect(hub.metrics.totals().connections == 0)
        #expect(hub.metrics.totals().subscriptions == 0)
    }
}
