import ParleyWire

/// Hears of every change to a channel's local subscriptions, with the hub's lock held, so
/// the changes arrive in the order the directory made them (the cluster bus numbers them
/// in that order). Must be quick and must not call back into the hub.
public protocol ChannelShareObserver: Sendable {
    /// A channel's state on this node after a change: its subscription count and, on presence
    /// channels, the members connected here with their user info.
    func localChannelChanged(app: String, channel: String, subscriptions: Int, members: [String: JSONValue]?)
}

extension ChannelShareObserver {
    func report(_ directory: ChannelDirectory, app: String, channel: String) {
        let share = directory.localShare(app: app, channel: channel)
        localChannelChanged(app: app, channel: channel, subscriptions: share.subscriptions, members: share.members)
    }
}
