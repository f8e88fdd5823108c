/// The channels hub: subscriptions, presence, users and fan-out for every app.
///
/// Connection-side methods are called on the subscriber's own loop. A cross-node bus
/// (Redis, PostgreSQL) implements the same interface by wrapping a local hub: forwarding
/// publishes to other nodes and replicating the directory.
public protocol ChannelHub: AnyObject, Sendable {
    /// Admits a new connection; false when the app is over its connection quota (4004).
    func connect(app: AppConfig, subscriber: any ChannelSubscriber) -> Bool
    /// Forgets a connection (after its channels were left and it signed out).
    func disconnect(app: AppConfig, subscriber: any ChannelSubscriber)
    /// Subscribes a connection to a channel it is authorised for.
    func subscribe(app: AppConfig, subscriber: any ChannelSubscriber, request: PusherSubscribeRequest) -> PusherSubscribeOutcome
    /// Removes a connection from a channel.
    func unsubscribe(app: AppConfig, subscriber: any ChannelSubscriber, channel: String)
    /// Records a signed-in connection (server-to-user, watchlists, terminate).
    func signIn(app: AppConfig, subscriber: any ChannelSubscriber, user: PusherSignedInUser)
    /// Forgets a signed-in connection.
    func signOut(app: AppConfig, subscriber: any ChannelSubscriber, userID: String)
    /// Publishes events; each subscriber receives each event's frame once.
    func publish(app: AppConfig, events: [HubEvent])
    /// Whether each of `channels` has a subscriber at this moment, so a publisher can skip
    /// encoding events nobody would receive. Skipping is the same as publishing just before
    /// a later subscription: that subscriber does not get the event either way.
    func hasSubscribers(app: AppConfig, channels: [String]) -> [Bool]
    /// Closes every connection signed in as the user with 4009.
    func terminateUser(app: AppConfig, userID: String)
    /// Ends subscriptions at once, sending each revoked socket `parley:subscription_revoked`
    /// on the channel; an event published after this returns does not reach them.
    func revokeSubscriptions(app: AppConfig, _ revocations: [SubscriptionRevocation])
    /// What the HTTP API reports about a channel.
    func snapshot(app: AppConfig, channel: String) -> ChannelSnapshot
    /// Occupied channels whose names start with the prefix.
    func occupiedChannels(app: AppConfig, prefix: String?) -> [String]
    /// The user ids of a presence channel.
    func presenceUsers(app: AppConfig, channel: String) -> [String]
}

extension ChannelHub {
    /// A hub without subscriptions of its own (a recorder, a relay) has nothing to revoke.
    public func revokeSubscriptions(app: AppConfig, _ revocations: [SubscriptionRevocation]) {}

    /// Every channel might have subscribers: a hub that cannot tell cheaply gets every event.
    public func hasSubscribers(app: AppConfig, channels: [String]) -> [Bool] {
        Array(repeating: true, count: channels.count)
    }
}
