import ParleyWireCore

/// One HTTP request as a transport sends it.
public struct HTTPRequestMessage: Sendable {
    /// The method (`GET`, `POST`…).
    public var method: String
    /// The absolute URL, `http://host[:port]/path?query`.
    public var url: String
    /// Header fields (Host, Content-Length and Connection are added by the transport).
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
}
