/// Subscriptions the hub holds back because its gate answered `wait`: each until the gate
/// reports a change for its socket and channel, or its deadline passes. A value; the hub keeps
/// it under its lock and passes the time in.
struct HeldSubscriptions {
    struct Key: Hashable {
        var socketID: String
        var channel: String
    }

    struct Entry {
        var app: AppConfig
        var subscriber: any ChannelSubscriber
        var request: PusherSubscribeRequest
        var deadline: Int64
        /// What to tell the client if the gate still does not admit at the deadline.
        var reason: String
    }

    private(set) var entries: [Key: Entry] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// Holds a subscription until `deadline` (a repeated subscribe replaces the earlier one).
    mutating func hold(_ entry: Entry) {
        entries[Key(socketID: entry.subscriber.socketID, channel: entry.request.channel.name)] = entry
    }

    /// Takes the held subscription of `socketID` to `channel`, if any.
    mutating func take(socketID: String, channel: String) -> Entry? {
        entries.removeValue(forKey: Key(socketID: socketID, channel: channel))
    }

    /// Forgets every subscription a closed socket held.
    mutating func drop(socketID: String) {
        entries = entries.filter { $0.key.socketID != socketID }
    }

    /// Takes the subscriptions whose deadline is at or before `now`, in socket and channel order.
    mutating func takeExpired(now: Int64) -> [Entry] {
        let expired = entries.filter { $0.value.deadline <= now }
        for key in expired.keys { entries[key] = nil }
        return expired.sorted { ($0.key.socketID, $0.key.channel) < ($1.key.socketID, $1.key.channel) }.map(\.value)
    }
}
