import ParleyWire

/// One event of a webhook body (spec section 8).
public struct WebhookEvent: Sendable, Equatable {
    /// The kind (`name` on the wire).
    public var kind: WebhookEventKind
    /// The channel.
    public var channel: String
    /// The member (member_added/removed, presence client events).
    public var userID: String?
    /// The client event name (client_event).
    public var event: String?
    /// The client event data (client_event).
    public var data: JSONValue?
    /// The sender (client_event).
    public var socketID: String?
    /// The new count (subscription_count).
    public var subscriptionCount: Int?

    /// Creates an event.
    public init(
        _ kind: WebhookEventKind, channel: String, userID: String? = nil, event: String? = nil,
        data: JSONValue? = nil, socketID: String? = nil, subscriptionCount: Int? = nil
    ) {
        self.kind = kind
        self.channel = channel
        self.userID = userID
        self.event = event
        self.data = data
        self.socketID = socketID
        self.subscriptionCount = subscriptionCount
    }

    /// The JSON object for the `events` array.
    public var json: JSONValue {
        var object: JSONObject = ["name": .string(kind.rawValue), "channel": .string(channel)]
        if let event { object.append("event", .string(event)) }
        if let data {
            // Pusher sends client event data as a string; objects from clients are serialised.
            object.append("data", data.stringValue.map(JSONValue.string) ?? .string(JSONWriter.string(data)))
        }
        if let socketID { object.append("socket_id", .string(socketID)) }
        if let userID { object.append("user_id", .string(userID)) }
        if let subscriptionCount { object.append("subscription_count", .int(subscriptionCount)) }
        return .object(object)
    }
}
