/// One answered request, for an access log: what was asked (method and the route's pattern,
/// never the path's values, the query or the body, which may hold tokens), how it was
/// answered, and for whom when the handler said so.
public struct HTTPAccessRecord: Sendable, Equatable {
    /// The request method (`GET`), or `-` when the head could not be parsed.
    public var method: String
    /// The matched route's pattern (`/v1/rooms/{room_id}/messages`), or `-` when none matched.
    public var route: String
    /// The status sent (101 for an accepted WebSocket upgrade).
    public var status: Int
    /// Microseconds from the request's head to its answer being queued.
    public var durationMicroseconds: Int
    /// Body bytes received.
    public var bytesIn: Int
    /// Body bytes sent.
    public var bytesOut: Int
    /// The client's address, when known.
    public var client: String?
    /// The app the handler served (``HTTPResponse/loggedApp``).
    public var app: String?
    /// The user the handler served (``HTTPResponse/loggedUser``).
    public var user: String?
}
