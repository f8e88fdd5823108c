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
        // Split on the UTF-8 view: a generic split() over Characters cost more than the query parse.
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else {
            self.init(method: method, path: target, query: PusherQuery(parsing: ""), body: body)
            return
        }
        let path = String(Substring(target.utf8[..<mark]))
        let query = Substring(target.utf8[target.utf8.index(after: mark)...])
        self.init(method: method, path: path, query: PusherQuery(parsing: query), body: body)
    }
}
