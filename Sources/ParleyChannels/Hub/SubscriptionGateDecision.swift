/// A subscription gate's answer for one socket and channel.
public enum SubscriptionGateDecision: Sendable, Equatable {
    /// Admit the subscription.
    case admit
    /// Refuse it, telling the client why (status 403).
    case refuse(String)
    /// Not yet: a grant for it may be on its way (another node signed the channel). The hub
    /// holds the subscription until the gate reports a change (`LocalChannelHub.reconsider`)
    /// or its wait bound passes; then it asks again, and refuses with this reason if the gate
    /// still does not admit.
    case wait(String)
}
