import ParleyChannels

/// One signed chat hook POST.
public struct ChatHookRequest: Sendable {
    /// Where to POST.
    public var url: WebhookURL
    /// Header fields (content type, key, timestamp, signature).
    public var headers: [(String, String)]
    /// The JSON body.
    public var body: [UInt8]
    /// Milliseconds after which the poster gives up and answers nil.
    public var timeoutMilliseconds: Int

    /// Creates a request.
    public init(url: WebhookURL, headers: [(String, String)], body: [UInt8], timeoutMilliseconds: Int) {
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}
