import ParleyChannelsTesting
import ParleyWire
import Synchronization
import Testing

@testable import ParleyChannels

/// A gate that admits only the (socket, channel) pairs it holds, and remembers closed sockets.
final class ListGate: SubscriptionGate {
    private let admitted = Mutex<Set<String>>([])
    private let closed = Mutex<[String]>([])

    func grant(_ socket: String, _ channel: String) { admitted.withLock { _ = $0.insert(socket + " " + channel) } }
    func withdraw(_ socket: String, _ channel: String) { admitted.withLock { _ = $0.remove(socket + " " + channel) } }
    var closedSockets: [String] { closed.withLock { $0 } }

    func refusal(app: String, socketID: String, channel: String) -> String? {
        guard channel.hasPrefix("private-room-") else { return nil }
        return admitted.withLock { $0.contains(socketID + " " + channel) } ? nil : "not granted"
    }

    func socketClosed(app: String, socketID: String) { closed.withLock { $0.append(socketID) } }
}

/// A gate whose grants arrive later: it asks the hub to wait for any guarded channel it has
/// not granted.
final class LateGate: SubscriptionGate {
    let list = ListGate()

    func refusal(app: String, socketID: String, channel: String) -> String? { list.refusal(app: app, socketID: socketID, channel: channel) }
    func socketClosed(app: String, socketID: String) { list.socketClosed(app: app, socketID: socketID) }
    func decision(app: String, socketID: String, channel: String) -> SubscriptionGateDecision {
        refusal(app: app, socketID: socketID, channel: channel).map(SubscriptionGateDecision.wait) ?? .admit
    }
}

/// Ending subscriptions from above the hub: `revokeSubscriptions` and the subscription gate.
@Suite struct RevocationHubTests {
    let app = testApp()
    let loops = [ManualHubLoop(), ManualHubLoop()]
    let clock = TestClock()
    let hub: LocalChannelHub
    let config = ChannelsConfig(apps: [testApp()])

    init() {
        hub = LocalChannelHub(loops: loops, clock: clock.read)
    }

    func session(loop: Int, socket: String) -> (PusherSession, FakeTransport) {
        let transport = FakeTransport()
        let s = PusherSession(
            app: app, config: config, loopIndex: loop, hub: hub, transport: transport,
            webhooks: nil, metrics: hub.metrics, now: clock.now, socketID: PusherSocketID(socket)!)
        s.start()
        return (s, transport)
    }

    func run() { for loop in loops { loop.runPending() } }

    func joinPrivate(_ s: PusherSession, _ channel: String) {
        let auth = PusherSignature.channelAuth(key: app.key, secret: app.secret, socketID: s.socketID, channel: channel)
        s.receiveText(subscribeMessage(channel, auth: auth), now: clock.now)
    }

    func publish(_ channel: String, _ name: String) {
        hub.publish(app: app, events: [HubEvent(channel: channel, event: name, data: .string("{}"))])
    }

    func names(_ t: FakeTransport, on channel: String) -> [String] {
        t.messages.filter { $0.channel == channel && !$0.event.hasPrefix("pusher") }.map(\.event)
    }

    @Test func revokedSocketsGetTheNoticeAndNothingPublishedAfter() throws {
        let a = session(loop: 0, socket: "1.1"), b = session(loop: 1, socket: "2.2"), c = session(loop: 1, socket: "3.3")
        for (s, _) in [a, b, c] { joinPrivate(s, "private-room-r") }
        run()
        publish("private-room-r", "before")
        hub.revokeSubscriptions(
            app: app,
            [
                SubscriptionRevocation(
                    channel: "private-room-r", target: .sockets(["2.2"], signedInAs: nil),
                    reason: "member_removed")
            ])
        publish("private-room-r", "after")
        run()
        #expect(names(b.1, on: "private-room-r") == ["before", SubscriptionRevocation.eventName])
        for (_, t) in [a, c] { #expect(names(t, on: "private-room-r") == ["before", "after"]) }
        let notice = try #require(b.1.events(SubscriptionRevocation.eventName).first)
        let data = try JSONParser.parse(try #require(notice.data?.stringValue))
        #expect(data["channel"]?.stringValue == "private-room-r" && data["reason"]?.stringValue == "member_removed")
        #expect(hub.snapshot(app: app, channel: "private-room-r").subscriptionCount == 2)
        #expect(b.1.closedWith == nil, "the connection itself stays open")
        // The connection forgot the channel: its client events there are refused, unsubscribing is a no-op.
        b.0.receiveText(bytes(#"{"event":"client-x","channel":"private-room-r","data":{}}"#), now: clock.now)
        run()
        #expect(a.1.events("client-x").isEmpty)
        b.0.transportClosed()
        #expect(hub.snapshot(app: app, channel: "private-room-r").subscriptionCount == 2)
    }

    @Test func allTargetsEverySubscriberAndSignedInTargetsTheUsersSockets() {
        let a = session(loop: 0, socket: "1.1"), b = session(loop: 1, socket: "2.2"), c = session(loop: 0, socket: "3.3")
        for (s, _) in [a, b, c] { joinPrivate(s, "private-room-r"); joinPrivate(s, "private-room-q") }
        let userData = #"{"id":"bob"}"#
        let signin = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: "2.2", userData: userData)
        b.0.receiveText(bytes(#"{"event":"pusher:signin","data":{"auth":"\#(signin)","user_data":"{\"id\":\"bob\"}"}}"#), now: clock.now)
        run()
        hub.revokeSubscriptions(
            app: app,
            [
                SubscriptionRevocation(channel: "private-room-r", target: .all, reason: "room_deleted"),
                SubscriptionRevocation(channel: "private-room-q", target: .sockets([], signedInAs: "bob"), reason: "member_removed")
            ])
        publish("private-room-r", "late")
        publish("private-room-q", "late")
        run()
        for (_, t) in [a, b, c] { #expect(names(t, on: "private-room-r") == [SubscriptionRevocation.eventName]) }
        #expect(names(b.1, on: "private-room-q") == [SubscriptionRevocation.eventName])
        for (_, t) in [a, c] { #expect(names(t, on: "private-room-q") == ["late"]) }
        #expect(!hub.hasSubscribers(app: app, channels: ["private-room-r"])[0])
    }

    @Test func theGateDecidesAtSubscribeTimeAndHearsOfClosedSockets() {
        let gate = ListGate()
        hub.setSubscriptionGate(gate)
        let a = session(loop: 0, socket: "1.1")
        gate.grant("1.1", "private-room-r")
        joinPrivate(a.0, "private-room-r")
        joinPrivate(a.0, "private-room-q")  // validly signed, but not granted
        joinPrivate(a.0, "private-other")  // not the gate's business
        run()
        #expect(a.1.events("pusher_internal:subscription_succeeded").compactMap(\.channel).sorted() == ["private-other", "private-room-r"])
        let refused = a.1.events("pusher:subscription_error")
        #expect(refused.map(\.channel) == ["private-room-q"])
        #expect(refused.first?.data?["status"]?.intValue == 403 && refused.first?.data?["type"]?.stringValue == "AuthError")
        // A withdrawn grant refuses the same signature later.
        gate.withdraw("1.1", "private-room-r")
        a.0.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"private-room-r"}}"#), now: clock.now)
        joinPrivate(a.0, "private-room-r")
        #expect(a.1.events("pusher:subscription_error").map(\.channel) == ["private-room-q", "private-room-r"])
        #expect(hub.isConnected(app: app.id, socketID: "1.1"))
        #expect(!hub.isConnected(app: "another", socketID: "1.1"))
        a.0.transportClosed()
        #expect(gate.closedSockets == ["1.1"])
        #expect(!hub.isConnected(app: app.id, socketID: "1.1"))
    }

    @Test func aHeldSubscriptionIsAdmittedOnItsGrantOrRefusedAfterTheBound() throws {
        let gate = LateGate()
        hub.setSubscriptionGate(gate)
        let a = session(loop: 0, socket: "1.1"), b = session(loop: 1, socket: "2.2"), c = session(loop: 1, socket: "3.3")
        for (s, _) in [a, b, c] { joinPrivate(s, "private-room-r") }
        run()
        for (_, t) in [a, b, c] {
            #expect(t.events("pusher_internal:subscription_succeeded").isEmpty && t.events("pusher:subscription_error").isEmpty)
        }
        // Granted late: admitted, and events published after reach it (and nothing before its
        // subscription_succeeded).
        publish("private-room-r", "before")
        gate.list.grant("1.1", "private-room-r")
        hub.reconsider(app: app.id, socketID: "1.1", channel: "private-room-r")
        publish("private-room-r", "after")
        // c leaves while held: never decided.
        c.0.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"private-room-r"}}"#), now: clock.now)
        run()
        #expect(a.1.messages.filter { $0.channel == "private-room-r" }.map(\.event) == ["pusher_internal:subscription_succeeded", "after"])
        // A change for a socket that is still not granted keeps it held.
        hub.reconsider(app: app.id, socketID: "2.2", channel: "private-room-r")
        run()
        #expect(b.1.events("pusher:subscription_error").isEmpty)
        clock.now += LocalChannelHub.gateWaitMilliseconds
        hub.tick(apps: AppRegistry(config))
        run()
        let refused = b.1.events("pusher:subscription_error")
        #expect(refused.map(\.channel) == ["private-room-r"] && refused.first?.data?["status"]?.intValue == 403)
        #expect(c.1.events("pusher:subscription_error").isEmpty && c.1.events("pusher_internal:subscription_succeeded").isEmpty)
        #expect(a.1.events("pusher:subscription_error").isEmpty)
        #expect(hub.snapshot(app: app, channel: "private-room-r").subscriptionCount == 1)
    }
}
