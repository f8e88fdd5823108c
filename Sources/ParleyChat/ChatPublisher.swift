import ParleyChannels

/// Where the chat service hands its events after each durable write.
///
/// Events of one call come in one batch, in the order subscribers should see them.
/// Implementations must not block for long: the request waits for `publish` to return.
public protocol ChatPublisher: Sendable {
    /// Publishes events in the app's channels namespace.
    func publish(app: String, events: [ChatEvent])
    /// Ends subscriptions whose access ended (after the events of the same call were published).
    func revoke(app: String, _ revocations: [SubscriptionRevocation])
    /// Closes every realtime connection signed in as `user` (the user was deleted).
    func disconnect(app: String, user: String)
}

extension ChatPublisher {
    /// A publisher without subscriptions has nothing to revoke.
    public func revoke(app: String, _ revocations: [SubscriptionRevocation]) {}
    /// A publisher without connections has nothing to close.
    public func disconnect(app: String, user: String) {}
}
