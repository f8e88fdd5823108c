import ParleyWire

/// An HTTP API request as the handlers see it: method, path, query and raw body.
public struct PusherAPIRequest: Sendable {
    /// The method, e.g. `POST`.
    public var method: String
    /// The path exactly as received (percent-encoded, no query).
    public var path: String
    /// The query parameters.
    public var query: PusherQuery
    /// The raw body.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, path: String, query: PusherQuery, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    /// Creates a request from a request target (`/path?query`).
    public init(method: String, target: String, body: [UInt8] = []) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(method: method, path: String(parts[0]), query: PusherQuery(parsing: parts.count > 1 ? parts[1] : ""), body: body)
    }
}
