import ParleyWire

/// A connection as the hub sees it. Every method is called on the connection's own loop.
public protocol ChannelSubscriber: AnyObject, Sendable {
    /// The connection's socket id (never changes).
    var socketID: String { get }
    /// The index of the loop the connection lives on (never changes).
    var loopIndex: Int { get }
    /// Queues a frame for the client and returns true; returns false when the connection has
    /// finished, or when the frame would take its outbound queue over its bound (the
    /// connection then closes itself with 4100). The hub counts delivered messages and bytes,
    /// once per fan-out rather than once per subscriber.
    @discardableResult
    func deliver(_ frame: ChannelFrame) -> Bool
    /// Closes the connection with an error (terminated user, shutdown).
    func terminate(_ code: PusherErrorCode, message: String)
    /// The hub already removed the connection from `channel` (its fan-out table too): forget
    /// the subscription and send `notice` (`parley:subscription_revoked`) to the client.
    func revoke(channel: String, notice: ChannelFrame)
    /// The hub decided a subscription it had held (`PusherSubscribeOutcome.held`): carry out
    /// `outcome` as if `subscribe` had returned it.
    func subscriptionDecided(channel: String, _ outcome: PusherSubscribeOutcome)
}
