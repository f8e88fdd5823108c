/// What an endpoint answered.
public struct ChatHookAnswer: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The response body.
    public var body: [UInt8]

    /// Creates an answer.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// Whether the status is 2xx.
    public var succeeded: Bool { (200..<300).contains(status) }
}
