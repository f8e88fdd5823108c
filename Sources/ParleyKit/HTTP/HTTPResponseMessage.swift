import ParleyWireCore

/// One HTTP response as a transport received it.
public struct HTTPResponseMessage: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields.
    public var headers: HTTPHeaders
    /// The body (de-chunked).
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
