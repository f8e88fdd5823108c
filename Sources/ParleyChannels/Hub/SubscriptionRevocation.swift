import ParleyWire

/// An order to end some sockets' subscriptions to one channel, telling each socket why.
///
/// The hub removes the sockets from the channel at once (no event published after the
/// revocation reaches them) and sends each, on that channel, the event
/// `parley:subscription_revoked` with data `{"channel": …, "reason": …}` (a JSON string, as
/// Pusher channel events carry their data). The socket stays connected; a client that wants
/// the channel back must be authorised again.
public struct SubscriptionRevocation: Sendable, Hashable {
    /// Which subscribers of the channel lose it.
    public enum Target: Sendable, Hashable {
        /// Every subscriber.
        case all
        /// The listed sockets, and every socket signed in (`pusher:signin`) as `signedInAs`.
        case sockets(Set<String>, signedInAs: String?)
    }

    /// The event name a revoked socket receives on the channel.
    public static let eventName = "parley:subscription_revoked"

    /// The channel.
    public var channel: String
    /// Who loses it.
    public var target: Target
    /// A short machine-readable reason (`member_removed`, `room_deleted`…), passed to the client.
    public var reason: String

    /// Creates an order.
    public init(channel: String, target: Target, reason: String) {
        self.channel = channel
        self.target = target
        self.reason = reason
    }

    /// The notice sent to each revoked socket.
    public var noticeFrame: [UInt8] {
        let data = JSONWriter.string(.object(["channel": .string(channel), "reason": .string(reason)]))
        return PusherFrame.channelEvent(event: Self.eventName, channel: channel, data: .string(data))
    }
}
