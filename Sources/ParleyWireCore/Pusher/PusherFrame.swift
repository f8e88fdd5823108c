/// Encoders for the messages a Pusher server sends, as ready-to-send UTF-8 JSON text.
///
/// Following the protocol, `pusher:*` and `pusher_internal:*` payloads are JSON-encoded
/// strings, except `pusher:error`, `pusher:signin_success` and `pusher:subscription_error`,
/// which carry objects (pysher depends on both conventions).
public enum PusherFrame {
    /// `pusher:connection_established` with the socket id and activity timeout (seconds).
    public static func connectionEstablished(socketID: String, activityTimeout: Int) -> [UInt8] {
        let inner: JSONValue = .object(["socket_id": .string(socketID), "activity_timeout": .int(activityTimeout)])
        return message("pusher:connection_established", channel: nil, data: .string(JSONWriter.string(inner)))
    }

    /// `pusher:error` with a message and a code (nil for non-fatal subscribe problems).
    public static func error(code: Int?, message text: String) -> [UInt8] {
        let data: JSONValue = .object(["message": .string(text), "code": code.map(JSONValue.int) ?? .null])
        return message("pusher:error", channel: nil, data: data)
    }

    /// `pusher:ping`.
    public static func ping() -> [UInt8] { message("pusher:ping", channel: nil, data: .string("{}")) }

    /// `pusher:pong`.
    public static func pong() -> [UInt8] { message("pusher:pong", channel: nil, data: .string("{}")) }

    /// `pusher_internal:subscription_succeeded` with data `"{}"`.
    public static func subscriptionSucceeded(channel: String) -> [UInt8] {
        message("pusher_internal:subscription_succeeded", channel: channel, data: .string("{}"))
    }

    /// `pusher_internal:subscription_succeeded` for a presence channel with its member list.
    public static func presenceSubscriptionSucceeded(channel: String, members: [(id: String, info: JSONValue)]) -> [UInt8] {
        var hash = JSONObject()
        for member in members { hash.append(member.id, member.info) }
        let presence: JSONValue = .object([
            "ids": .array(members.map { .string($0.id) }),
            "hash": .object(hash),
            "count": .int(members.count)
        ])
        let inner: JSONValue = .object(["presence": presence])
        return message("pusher_internal:subscription_succeeded", channel: channel, data: .string(JSONWriter.string(inner)))
    }

    /// `pusher:subscription_error` (as Soketi sends it) with the error type, text and HTTP-like status.
    public static func subscriptionError(channel: String, type: String, error: String, status: Int) -> [UInt8] {
        let data: JSONValue = .object(["type": .string(type), "error": .string(error), "status": .int(status)])
        return message("pusher:subscription_error", channel: channel, data: data)
    }

    /// `pusher_internal:member_added`.
    public static func memberAdded(channel: String, userID: String, userInfo: JSONValue) -> [UInt8] {
        let inner: JSONValue = .object(["user_id": .string(userID), "user_info": userInfo])
        return message("pusher_internal:member_added", channel: channel, data: .string(JSONWriter.string(inner)))
    }

    /// `pusher_internal:member_removed`.
    public static func memberRemoved(channel: String, userID: String) -> [UInt8] {
        let inner: JSONValue = .object(["user_id": .string(userID)])
        return message("pusher_internal:member_removed", channel: channel, data: .string(JSONWriter.string(inner)))
    }

    /// `pusher_internal:subscription_count`.
    public static func subscriptionCount(channel: String, count: Int) -> [UInt8] {
        let inner: JSONValue = .object(["subscription_count": .int(count)])
        return message("pusher_internal:subscription_count", channel: channel, data: .string(JSONWriter.string(inner)))
    }

    /// `pusher:signin_success` carrying the signed-in user data string.
    public static func signinSuccess(userData: String) -> [UInt8] {
        message("pusher:signin_success", channel: nil, data: .object(["user_data": .string(userData)]))
    }

    /// `pusher_internal:watchlist_events` with `online`/`offline` groups of user ids.
    public static func watchlistEvents(_ events: [(name: String, userIDs: [String])]) -> [UInt8] {
        let list: [JSONValue] = events.map { .object(["name": .string($0.name), "user_ids": .array($0.userIDs.map(JSONValue.string))]) }
        let inner: JSONValue = .object(["events": .array(list)])
        return message("pusher_internal:watchlist_events", channel: nil, data: .string(JSONWriter.string(inner)))
    }

    /// `pusher:cache_miss` for a cache channel with nothing cached.
    public static func cacheMiss(channel: String) -> [UInt8] {
        message("pusher:cache_miss", channel: channel, data: nil)
    }

    /// An application event on a channel. `data` is a `.string` for HTTP API events and the
    /// client's value for client events; `userID` is added on presence client events.
    public static func channelEvent(event: String, channel: String, data: JSONValue, userID: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(48 + event.utf8.count + channel.utf8.count)
        appendEventHead(event: event, channel: channel, into: &out)
        JSONWriter.write(data, into: &out)
        appendEventTail(userID: userID, into: &out)
        return out
    }

    /// The same frame around `encodedData`, the JSON text of the data as `JSONWriter` writes it:
    /// publishers that send one payload on many channels encode it once.
    public static func channelEvent(event: String, channel: String, encodedData: [UInt8], userID: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(48 + event.utf8.count + channel.utf8.count + encodedData.count)
        appendEventHead(event: event, channel: channel, into: &out)
        out.append(contentsOf: encodedData)
        appendEventTail(userID: userID, into: &out)
        return out
    }

    private static func appendEventHead(event: String, channel: String, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"event":"#.utf8)
        JSONWriter.writeString(event, into: &out)
        out.append(contentsOf: #","channel":"#.utf8)
        JSONWriter.writeString(channel, into: &out)
        out.append(contentsOf: #","data":"#.utf8)
    }

    private static func appendEventTail(userID: String?, into out: inout [UInt8]) {
        if let userID {
            out.append(contentsOf: #","user_id":"#.utf8)
            JSONWriter.writeString(userID, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func message(_ event: String, channel: String?, data: JSONValue?) -> [UInt8] {
        PusherMessage(event: event, channel: channel, data: data).serialized()
    }
}
