/// A rule, owned by an application above the hub, that a socket must pass at the moment it
/// subscribes to a channel, after its signature was checked.
///
/// A channel signature is valid forever for its socket; a gate lets the application withdraw
/// it (a member removed from a room keeps the signature they were given). The hub asks under
/// its own lock, so a subscription the gate admits is in the directory before any later
/// `revokeSubscriptions` looks, and one asked after the gate withdrew a grant is refused.
/// Implementations must answer quickly and must not call back into the hub.
public protocol SubscriptionGate: Sendable {
    /// Nil to admit `socketID` to `channel`; otherwise why it is refused (sent to the client in
    /// `pusher:subscription_error` with status 403).
    func refusal(app: String, socketID: String, channel: String) -> String?
    /// The connection `socketID` ended: forget whatever was granted to it.
    func socketClosed(app: String, socketID: String)
    /// The full answer, which may hold the subscription back for a while (a gate whose grants
    /// can arrive from elsewhere); by default `refusal`'s yes or no.
    func decision(app: String, socketID: String, channel: String) -> SubscriptionGateDecision
}

extension SubscriptionGate {
    public func decision(app: String, socketID: String, channel: String) -> SubscriptionGateDecision {
        refusal(app: app, socketID: socketID, channel: channel).map(SubscriptionGateDecision.refuse) ?? .admit
    }
}
