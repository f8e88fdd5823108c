import ParleyWire

/// One request for ``HTTPClient``.
public struct HTTPClientRequest: Sendable {
    /// The method (`GET`, `POST`…).
    public var method: String
    /// The absolute URL, `http[s]://host[:port]/path?query`.
    public var url: String
    /// Header fields; Host, Content-Length and Connection are the client's.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Whether the method may be sent twice without changing the outcome (RFC 9110 §9.2.2),
    /// so a request lost with a kept-alive connection the server had closed is sent again.
    public var isIdempotent: Bool { ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method) }
}
