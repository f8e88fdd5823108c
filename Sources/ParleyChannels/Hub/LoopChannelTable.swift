/// The subscribers of each channel that live on one loop; touched only on that loop.
final class LoopChannelTable: @unchecked Sendable {
    // @unchecked: confined — every access happens on the owning loop's thread.

    struct Key: Hashable {
        var app: String
        var channel: String
    }

    private var channels: [Key: [ObjectIdentifier: any ChannelSubscriber]] = [:]

    func add(app: String, channel: String, _ subscriber: any ChannelSubscriber) {
        channels[Key(app: app, channel: channel), default: [:]][ObjectIdentifier(subscriber)] = subscriber
    }

    func remove(app: String, channel: String, _ subscriber: any ChannelSubscriber) {
        let key = Key(app: app, channel: channel)
        channels[key]?[ObjectIdentifier(subscriber)] = nil
        if channels[key]?.isEmpty ?? false { channels[key] = nil }
    }

    /// Hands the frame to each local subscriber except `excluding`; returns the deliveries.
    func deliver(app: String, channel: String, frame: ChannelFrame, excluding: String?) -> Int {
        guard let subscribers = channels[Key(app: app, channel: channel)] else { return 0 }
        var count = 0
        for subscriber in subscribers.values where subscriber.socketID != excluding {
            subscriber.deliver(frame)
            count += 1
        }
        return count
    }
}
