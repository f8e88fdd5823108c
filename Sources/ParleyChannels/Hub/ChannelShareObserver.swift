import ParleyWire

/// Hears of every change to a channel's local subscriptions, with the hub's lock held, so
/// the changes arrive in the order the directory made them (the cluster bus numbers them
/// in that order). Must be quick and must not call back into the hub.
public protocol ChannelShareObserver: Sendable {
    /// A channel's state on this node after a change: its subscription count and, on presence
    /// channels, the members connected here with their user info.
    func localChannelChanged(app: String, channel: String, subscriptions: Int, members: [String: JSONValue]?)
    /// Asked right after a subscription to `channel` was reported: true when its answer
    /// (`subscription_succeeded`) must wait for something the change set off (the cluster's
    /// claim of the channel), and then `answer` is called once, on any thread and without the
    /// hub's lock, when it may go; false to answer at once (`answer` is dropped).
    func answerAfterClaims(app: String, channel: String, _ answer: @escaping @Sendable () -> Void) -> Bool
}

extension ChannelShareObserver {
    func report(_ directory: ChannelDirectory, app: String, channel: String) {
        let share = directory.localShare(app: app, channel: channel)
        localChannelChanged(app: app, channel: channel, subscriptions: share.subscriptions, members: share.members)
    }
}
