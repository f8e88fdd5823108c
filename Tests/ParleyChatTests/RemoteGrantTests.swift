import ParleyChannels
import ParleyChannelsTesting
import ParleyWire
import Synchronization
import Testing

@testable import ParleyChat

/// The hub's monotonic milliseconds, moved by hand.
final class HubClock: Sendable {
    let milliseconds = Atomic<Int64>(1_000_000)
}

/// Grants signed by another node (`channel_granted` notices): a subscription that arrives
/// before its grant waits for it, a grant checks the membership again on the socket's node, and
/// an end of access still wins.
@Suite("Grants from other nodes")
struct RemoteGrantTests {
    let a = ChatHarness.appA
    let loops = [ManualHubLoop(), ManualHubLoop()]
    let clock = HubClock()
    let hub: LocalChannelHub

    init() {
        let clock = self.clock
        hub = LocalChannelHub(loops: loops, clock: { clock.milliseconds.load(ordering: .relaxed) })
    }

    func connect(_ socket: String) -> (session: PusherSession, transport: RecordingTransport) {
        let transport = RecordingTransport()
        let session = PusherSession(
            app: a, config: ChannelsConfig(apps: [a]), loopIndex: 0, hub: hub, transport: transport,
            webhooks: nil, metrics: hub.metrics, now: 0, socketID: PusherSocketID(socket)!)
        session.start()
        return (session, transport)
    }

    func run() { for loop in loops { loop.runPending() } }

    /// Subscribes with the signature another node gave (it verifies on any node).
    func subscribe(_ session: PusherSession, _ channel: String) {
        let auth = PusherSignature.channelAuth(key: a.key, secret: a.secret, socketID: session.socketID, channel: channel)
        session.receiveText(
            PusherMessage(event: "pusher:subscribe", data: .object(["channel": .string(channel), "auth": .string(auth)])).serialized(),
            now: 0)
        run()
    }

    /// Lets the hold bound pass and runs the hub's periodic work.
    func passTheBound() {
        clock.milliseconds.add(LocalChannelHub.gateWaitMilliseconds, ordering: .relaxed)
        hub.tick(apps: AppRegistry(ChannelsConfig(apps: [a])))
        run()
    }

    func succeeded(_ t: RecordingTransport, _ channel: String) -> Bool {
        t.events("pusher_internal:subscription_succeeded").contains { $0.channel == channel }
    }

    func refusals(_ t: RecordingTransport, _ channel: String) -> [PusherMessage] {
        t.events("pusher:subscription_error").filter { $0.channel == channel }
    }

    /// A room with bob in it, on a service whose grants may come from other nodes.
    func clusteredRoom(_ h: ChatHarness) async -> (room: String, channel: String) {
        h.service.grants.acceptRemoteGrants()
        await h.createUsers("alice", "bob")
        let room = await h.createRoom("alice", members: ["bob"])
        return (room, ChatEvent.roomChannel(room))
    }

    @Test func aSubscriptionWaitsForTheGrantAndIsAdmittedWhenItIsConfirmed() async throws {
        try await ChatHarness.with(hub: hub) { h in
            let (room, channel) = await clusteredRoom(h)
            let bob = connect("1.1")
            subscribe(bob.session, channel)
            #expect(refusals(bob.transport, channel).isEmpty && !succeeded(bob.transport, channel), "held, not refused")
            // The other node's notice arrives: checked here and confirmed.
            try await h.service.grantChannel(app: a.id, user: "bob", socketID: "1.1", channel: channel)
            run()
            #expect(succeeded(bob.transport, channel))
            await h.send("alice", room: room, "live")
            run()
            #expect(bob.transport.names(on: channel) == ["message.created"])
            passTheBound()
            #expect(refusals(bob.transport, channel).isEmpty, "an admitted subscription is not decided again")
        }
    }

    @Test func aSubscriptionWithoutAGrantIsRefusedOnceTheBoundPasses() async throws {
        try await ChatHarness.with(hub: hub) { h in
            let (_, channel) = await clusteredRoom(h)
            let bob = connect("1.1")
            subscribe(bob.session, channel)
            #expect(refusals(bob.transport, channel).isEmpty)
            passTheBound()
            let refused = refusals(bob.transport, channel)
            #expect(refused.count == 1 && refused.first?.data?["status"] == .int(403))
            #expect(hub.snapshot(app: a, channel: channel).subscriptionCount == 0)
        }
    }

    @Test func aRemovalBetweenTheGrantAndTheSubscriptionRefuses() async throws {
        try await ChatHarness.with(hub: hub) { h in
            let (room, channel) = await clusteredRoom(h)
            let bob = connect("1.1")
            try await h.service.grantChannel(app: a.id, user: "bob", socketID: "1.1", channel: channel)
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)/members/bob", as: .user("alice", app: a)).status == 204)
            subscribe(bob.session, channel)
            passTheBound()
            #expect(refusals(bob.transport, channel).count == 1 && !succeeded(bob.transport, channel))
            // A grant notice that crossed the removal is checked against the store and refused.
            await #expect(throws: ChatError.self) {
                try await h.service.grantChannel(app: a.id, user: "bob", socketID: "1.1", channel: channel)
            }
        }
    }

    @Test func aChannelGrantedNoticeRoundTrips() {
        let notice = ChatClusterNotice.channelGranted(app: "1", channel: "private-room-r", socket: "1.2", user: "bob")
        #expect(ChatClusterNotice(decoding: notice.encoded) == notice)
    }
}
