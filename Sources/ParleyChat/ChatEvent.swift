import ParleyWire

/// One realtime event the chat service publishes after a durable write.
public struct ChatEvent: Sendable, Equatable {
    /// The channel: `private-room-{id}` or `#server-to-user-{id}`.
    public var channel: String
    /// The event name (`message.created`, `room.added`…).
    public var name: String
    /// The event's data.
    public var data: JSONValue

    /// Creates an event.
    public init(channel: String, name: String, data: JSONValue) {
        self.channel = channel
        self.name = name
        self.data = data
    }

    /// The channel of a room's events.
    public static func roomChannel(_ roomID: String) -> String { "private-room-" + roomID }

    /// A user's personal channel.
    public static func userChannel(_ userID: String) -> String { "#server-to-user-" + userID }
}
