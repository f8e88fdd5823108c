import ParleyWire

/// A complete HTTP request as a handler sees it: head, decoded target, route parameters
/// and the whole body (bounded by the route's body limit).
public struct HTTPRequest: Sendable {
    /// The request line and header fields as received.
    public let head: HTTPRequestHead
    /// The target split into decoded path, segments and query.
    public let target: HTTPTarget
    /// Values of the route pattern's `{name}` parameters, decoded.
    public let parameters: [String: String]
    /// The body bytes (de-chunked); empty when there was none.
    public let body: [UInt8]
    /// The client's address, when known.
    public let remoteAddress: SocketAddress?

    /// Creates a request value (the server does this; tests may too).
    public init(
        head: HTTPRequestHead, target: HTTPTarget, parameters: [String: String] = [:],
        body: [UInt8] = [], remoteAddress: SocketAddress? = nil
    ) {
        self.head = head
        self.target = target
        self.parameters = parameters
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The request method.
    public var method: HTTPMethod { head.method }
    /// The decoded path.
    public var path: String { target.path }
    /// The header fields.
    public var headers: HTTPHeaders { head.headers }
    /// The first value of a query parameter.
    public func query(_ name: String) -> String? { target.query(name) }
    /// A route parameter by name.
    public func parameter(_ name: String) -> String? { parameters[name] }
}
