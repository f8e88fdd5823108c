/// One whole HTTP response as a client read it: the head and the de-chunked body.
public struct HTTPClientResponse: Sendable, Equatable {
    /// Status line and header fields.
    public var head: HTTPResponseHead
    /// The body, without transfer coding.
    public var body: [UInt8]

    /// Creates a response.
    public init(head: HTTPResponseHead, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }

    /// The status code.
    public var status: Int { head.status.code }
    /// Header fields.
    public var headers: HTTPHeaders { head.headers }
}
