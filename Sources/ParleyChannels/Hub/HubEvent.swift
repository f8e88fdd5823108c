import ParleyWire

/// One event to publish on one channel, with its frame encoded once.
public struct HubEvent: Sendable {
    /// The channel.
    public var channel: String
    /// The event name.
    public var event: String
    /// The data as published (kept for cache channels and webhooks).
    public var data: JSONValue
    /// The frame every subscriber receives.
    public var frame: [UInt8]
    /// A socket that must not receive it (the sender).
    public var excluding: String?

    /// Creates an event and encodes its frame.
    public init(channel: String, event: String, data: JSONValue, userID: String? = nil, excluding: String? = nil) {
        self.channel = channel
        self.event = event
        self.data = data
        self.frame = PusherFrame.channelEvent(event: event, channel: channel, data: data, userID: userID)
        self.excluding = excluding
    }

    /// Creates an event around an already-encoded frame.
    public init(channel: String, event: String, data: JSONValue, frame: [UInt8], excluding: String?) {
        self.channel = channel
        self.event = event
        self.data = data
        self.frame = frame
        self.excluding = excluding
    }
}
