import ParleyChannelsTesting
import ParleyWire
import Synchronization
import Testing

@testable import ParleyChannels

/// The hub tells an observer about each connection's sign-in and its end, nothing else.
@Suite struct SignedInUserObserverTests {
    final class Recorder: SignedInUserObserver {
        let log = Mutex<[String]>([])
        func userSignedIn(app: AppConfig, userID: String, socketID: String) {
            log.withLock { $0.append("in \(app.id) \(userID) \(socketID)") }
        }
        func userSignedOut(app: AppConfig, userID: String, socketID: String) {
            log.withLock { $0.append("out \(app.id) \(userID) \(socketID)") }
        }
        var entries: [String] { log.withLock { $0 } }
    }

    let app = testApp()
    let loops = [ManualHubLoop()]
    let clock = TestClock()
    let hub: LocalChannelHub
    let recorder = Recorder()

    init() {
        hub = LocalChannelHub(loops: loops, clock: clock.read)
        hub.setUserObserver(recorder)
    }

    func session(_ socket: String) -> PusherSession {
        let s = PusherSession(
            app: app, config: ChannelsConfig(apps: [app]), loopIndex: 0, hub: hub, transport: FakeTransport(),
            webhooks: nil, metrics: hub.metrics, now: clock.now, socketID: PusherSocketID(socket)!)
        s.start()
        return s
    }

    func signIn(_ s: PusherSession, user: String, secret: String? = nil) {
        let data = "{\"id\":\"\(user)\"}"
        let auth = PusherSignature.userAuth(key: app.key, secret: secret ?? app.secret, socketID: s.socketID, userData: data)
        s.receiveText(
            PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(data)])).serialized(),
            now: clock.now)
    }

    @Test func signInAndCloseAreReportedOncePerConnection() {
        let a = session("1.1"), b = session("2.2")
        signIn(a, user: "alice")
        signIn(a, user: "alice")  // signing in again as the same user is no new sign-in
        signIn(b, user: "alice")
        #expect(recorder.entries == ["in 3 alice 1.1", "in 3 alice 2.2"])
        a.transportClosed()
        a.transportClosed()
        #expect(recorder.entries == ["in 3 alice 1.1", "in 3 alice 2.2", "out 3 alice 1.1"])
    }

    @Test func refusedSignInsAndAnonymousConnectionsAreNotReported() {
        let a = session("1.1"), b = session("2.2")
        signIn(a, user: "mallory", secret: "not-the-secret")
        a.transportClosed()
        b.transportClosed()
        #expect(recorder.entries.isEmpty)
    }

    @Test func removingTheObserverStopsReports() {
        hub.setUserObserver(nil)
        let a = session("1.1")
        signIn(a, user: "alice")
        a.transportClosed()
        #expect(recorder.entries.isEmpty)
    }
}
