/// One message of the Pusher socket protocol: `{"event", "channel"?, "data"?, "user_id"?}`.
///
/// `data` is kept as the JSON value received: an object for most client→server messages,
/// a string for most server→client ones (`dataObject` reads either).
public struct PusherMessage: Sendable, Equatable {
    /// Why received text is not a protocol message.
    public enum ParseError: Error, Sendable, Equatable {
        /// The text is not JSON.
        case invalidJSON(JSONError)
        /// The JSON is not an object.
        case notAnObject
        /// `event` is missing or not a string.
        case missingEvent
        /// `channel` is present but not a string.
        case invalidChannel
    }

    /// The event name.
    public var event: String
    /// The channel, for channel events.
    public var channel: String?
    /// The payload as received.
    public var data: JSONValue?
    /// The sender's user id (server-added on presence client events).
    public var userID: String?

    /// Creates a message.
    public init(event: String, channel: String? = nil, data: JSONValue? = nil, userID: String? = nil) {
        self.event = event
        self.channel = channel
        self.data = data
        self.userID = userID
    }

    /// Parses a received text frame.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 32) throws(ParseError) -> PusherMessage {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes, maxDepth: maxDepth) } catch { throw .invalidJSON(error) }
        guard case .object(let object) = value else { throw .notAnObject }
        guard case .string(let event)? = object["event"] else { throw .missingEvent }
        var channel: String?
        switch object["channel"] {
        case nil, .null?: channel = nil
        case .string(let name)?: channel = name
        default: throw .invalidChannel
        }
        return PusherMessage(event: event, channel: channel, data: object["data"], userID: object["user_id"]?.stringValue)
    }

    /// `data` as an object: the object itself, or a string holding a JSON object
    /// (clients differ in which they send).
    public var dataObject: JSONObject? {
        switch data {
        case .object(let object)?: return object
        case .string(let text)?: return (try? JSONParser.parse(text))?.objectValue
        default: return nil
        }
    }

    /// The compact JSON serialisation of the message.
    public func serialized() -> [UInt8] {
        var object = JSONObject()
        object.append("event", .string(event))
        if let channel { object.append("channel", .string(channel)) }
        if let data { object.append("data", data) }
        if let userID { object.append("user_id", .string(userID)) }
        return JSONWriter.serialize(.object(object))
    }
}
