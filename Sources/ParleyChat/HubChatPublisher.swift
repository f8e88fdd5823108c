import ParleyChannels
import ParleyWire

/// Publishes chat events through a channels hub, so Pusher clients receive them.
public struct HubChatPublisher: ChatPublisher {
    private let hub: any ChannelHub
    private let apps: AppRegistry

    /// A publisher over `hub` for the apps in `apps`.
    public init(hub: any ChannelHub, apps: AppRegistry) {
        self.hub = hub
        self.apps = apps
    }

    /// Encodes each event once and hands the batch to the hub; unknown apps are ignored.
    ///
    /// Events on channels nobody is subscribed to are dropped first (most `room.activity`
    /// events go to members who are offline), in one question to the hub for the batch.
    /// A chat batch often carries one payload on many channels (`message.created` on the room,
    /// `room.activity` to each member), next to each other: the data is encoded once per run of
    /// equal payloads and only the frame around it per channel.
    public func publish(app: String, events: [ChatEvent]) {
        guard let config = apps.app(id: app), !events.isEmpty else { return }
        let listened = hub.hasSubscribers(app: config, channels: events.map(\.channel))
        let audible = zip(events, listened).compactMap { event, listened in listened ? event : nil }
        guard !audible.isEmpty else { return }
        var previous: (data: JSONValue, encoded: [UInt8])?
        let hubEvents = audible.map { event in
            let encoded: [UInt8]
            if let previous, previous.data == event.data {
                encoded = previous.encoded
            } else {
                encoded = JSONWriter.serialize(event.data)
                previous = (event.data, encoded)
            }
            let frame = PusherFrame.channelEvent(event: event.name, channel: event.channel, encodedData: encoded)
            return HubEvent(channel: event.channel, event: event.name, data: event.data, frame: frame, excluding: nil)
        }
        hub.publish(app: config, events: hubEvents)
    }

    /// Hands the revocations to the hub (unknown apps are ignored).
    public func revoke(app: String, _ revocations: [SubscriptionRevocation]) {
        guard let config = apps.app(id: app), !revocations.isEmpty else { return }
        hub.revokeSubscriptions(app: config, revocations)
    }

    /// Closes the user's signed-in connections with 4009.
    public func disconnect(app: String, user: String) {
        guard let config = apps.app(id: app) else { return }
        hub.terminateUser(app: config, userID: user)
    }
}
