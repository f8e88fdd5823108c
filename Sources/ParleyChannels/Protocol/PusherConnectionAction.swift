import ParleyWire

/// What a `PusherConnection` asks its driver to do.
public enum PusherConnectionAction: Sendable, Equatable {
    /// Send this text frame to the client.
    case send([UInt8])
    /// Close the WebSocket with this code (the matching `pusher:error` was already sent).
    case close(code: Int, reason: String)
    /// Ask the hub to subscribe this connection; answer with `subscriptionResult`.
    case subscribe(PusherSubscribeRequest)
    /// Tell the hub this connection left the channel.
    case unsubscribe(channel: String)
    /// Publish an accepted client event to the channel's other subscribers.
    case clientEvent(PusherClientEvent)
    /// Register the connection as signed in (server-to-user, watchlist, terminate).
    case signIn(PusherSignedInUser)
    /// The connection is no longer signed in (it closed).
    case signOut(userID: String)
}

/// A subscription the connection has authorised and the hub must record.
public struct PusherSubscribeRequest: Sendable, Equatable {
    /// The channel.
    public var channel: PusherChannel
    /// The presence member, for presence channels.
    public var member: PresenceMember?
}

/// An accepted client event, ready to publish.
public struct PusherClientEvent: Sendable, Equatable {
    /// The channel it was sent on.
    public var channel: String
    /// The `client-` event name.
    public var event: String
    /// The data exactly as the client sent it.
    public var data: JSONValue
    /// The sender's user id as the server verified it: the presence member's on presence
    /// channels, else the signed-in user's; nil for a connection that has not signed in.
    public var userID: String?
    /// The frame to deliver, encoded once.
    public var frame: [UInt8]
}

/// A signed-in user of a connection.
public struct PusherSignedInUser: Sendable, Equatable {
    /// The user id from `user_data`.
    public var userID: String
    /// The `user_data` string as signed.
    public var userData: String
    /// The user ids whose online state this connection watches.
    public var watchlist: [String]
}

/// The hub's answer to a subscription request.
public enum PusherSubscribeOutcome: Sendable, Equatable {
    /// Subscribed. `members` is the presence member list including the joiner (presence only);
    /// `cache` is what to replay on a cache channel.
    case succeeded(members: [PresenceMember]?, cache: CacheReplay)
    /// Refused by the hub (e.g. presence channel full).
    case refused(code: Int?, message: String, status: Int)
    /// Not decided yet (the hub's gate is waiting for a grant, or the cluster's store has yet
    /// to count the subscription): the hub gives the outcome to the subscriber later
    /// (`ChannelSubscriber.subscriptionDecided`).
    case held

    /// What a cache channel replays to a new subscriber.
    public enum CacheReplay: Sendable, Equatable {
        /// Not a cache channel.
        case none
        /// The last event's frame.
        case hit([UInt8])
        /// Nothing cached: the client gets `pusher:cache_miss`.
        case miss
    }
}

extension PusherConnectionAction {
    /// Whether carrying it out makes the hub hold (or publish for) this connection.
    var registersWithHub: Bool {
        switch self {
        case .subscribe, .clientEvent, .signIn: true
        case .send, .close, .unsubscribe, .signOut: false
        }
    }
}
