import ParleyChannels

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
    public func publish(app: String, events: [ChatEvent]) {
        guard let config = apps.app(id: app), !events.isEmpty else { return }
        hub.publish(app: config, events: events.map { HubEvent(channel: $0.channel, event: $0.name, data: $0.data) })
    }
}
