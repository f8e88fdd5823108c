/// The subscribers of each channel that live on one loop; touched only on that loop.
final class LoopChannelTable: @unchecked Sendable {
    // @unchecked: confined — every access happens on the owning loop's thread.

    struct Key: Hashable {
        var app: String
        var channel: String
    }

    /// One channel's subscribers in a contiguous array, which a fan-out walks front to back,
    /// with each one's position for O(1) removal.
    private struct Members {
        var list: [any ChannelSubscriber] = []
        var position: [ObjectIdentifier: Int] = [:]

        mutating func insert(_ subscriber: any ChannelSubscriber) {
            let id = ObjectIdentifier(subscriber)
            guard position[id] == nil else { return }
            position[id] = list.count
            list.append(subscriber)
        }

        /// Swaps the last subscriber into the removed one's place.
        mutating func remove(_ subscriber: any ChannelSubscriber) {
            guard let index = position.removeValue(forKey: ObjectIdentifier(subscriber)) else { return }
            let last = list.removeLast()
            if index < list.count {
                list[index] = last
                position[ObjectIdentifier(last)] = index
            }
        }
    }

    private var channels: [Key: Members] = [:]

    func add(app: String, channel: String, _ subscriber: any ChannelSubscriber) {
        channels[Key(app: app, channel: channel), default: Members()].insert(subscriber)
    }

    func remove(app: String, channel: String, _ subscriber: any ChannelSubscriber) {
        let key = Key(app: app, channel: channel)
        channels[key]?.remove(subscriber)
        if channels[key]?.list.isEmpty ?? false { channels[key] = nil }
    }

    /// Hands the frame to each local subscriber except `excluding`; returns how many queued it.
    ///
    /// Iterates a copy of the list, so a subscriber that closes (and unsubscribes) while
    /// receiving does not disturb the walk.
    func deliver(app: String, channel: String, frame: ChannelFrame, excluding: String?) -> Int {
        guard let subscribers = channels[Key(app: app, channel: channel)]?.list else { return 0 }
        var count = 0
        if let excluding {
            for subscriber in subscribers where subscriber.socketID != excluding {
                if subscriber.deliver(frame) { count += 1 }
            }
        } else {
            // The common case skips reading every subscriber's socket id (a String retain and
            // release per delivery on the hottest loop of a fan-out).
            for subscriber in subscribers {
                if subscriber.deliver(frame) { count += 1 }
            }
        }
        return count
    }
}
