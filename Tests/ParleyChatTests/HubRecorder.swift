import ParleyChannels
import ParleyWire
import Synchronization

/// A channels hub that only records what is published to it.
final class HubRecorder: ChannelHub {
    private let log = Mutex<[String]>([])
    private let events = Mutex<[HubEvent]>([])
    /// The channels `hasSubscribers` reports as listened to (nil: every channel).
    let subscribed: Set<String>?

    init(subscribed: Set<String>? = nil) {
        self.subscribed = subscribed
    }

    var published: [String] { log.withLock { $0 } }
    /// Every event handed over, frames included.
    var publishedEvents: [HubEvent] { events.withLock { $0 } }

    func publish(app: AppConfig, events: [HubEvent]) {
        log.withLock { log in log += events.map { "\(app.id):\($0.channel):\($0.event)" } }
        self.events.withLock { $0 += events }
    }

    func hasSubscribers(app: AppConfig, channels: [String]) -> [Bool] {
        channels.map { subscribed?.contains($0) ?? true }
    }

    func connect(app: AppConfig, subscriber: any ChannelSubscriber) -> Bool { true }
    func disconnect(app: AppConfig, subscriber: any ChannelSubscriber) {}
    func subscribe(app: AppConfig, subscriber: any ChannelSubscriber, request: PusherSubscribeRequest) -> PusherSubscribeOutcome {
        .refused(code: nil, message: "recording only", status: 500)
    }
    func unsubscribe(app: AppConfig, subscriber: any ChannelSubscriber, channel: String) {}
    func signIn(app: AppConfig, subscriber: any ChannelSubscriber, user: PusherSignedInUser) {}
    func signOut(app: AppConfig, subscriber: any ChannelSubscriber, userID: String) {}
    func terminateUser(app: AppConfig, userID: String) {}
    func snapshot(app: AppConfig, channel: String) -> ChannelSnapshot { ChannelSnapshot(occupied: false, subscriptionCount: 0) }
    func occupiedChannels(app: AppConfig, prefix: String?) -> [String] { [] }
    func presenceUsers(app: AppConfig, channel: String) -> [String] { [] }
}
