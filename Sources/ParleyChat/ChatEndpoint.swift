import ParleyWire

/// One endpoint of the chat API, for a transport that routes requests itself: it matches the
/// method and pattern once and hands the request straight to this endpoint's handler.
public struct ChatEndpoint: Sendable {
    /// The method.
    public let method: HTTPMethod
    /// The path pattern (`/v1/rooms/{room_id}/messages`), in `HTTPRouter` syntax.
    public let path: String
    /// Whether the handler does blocking file I/O (attachment bodies): run it off the event loops.
    public let blocks: Bool
    let route: ChatRoute
}
