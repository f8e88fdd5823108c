import ParleyWire

/// One HTTP request to the chat service, as the transport hands it over: no sockets attached.
public struct ChatRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The decoded path segments (a `%2F` inside a segment stays inside it).
    public var pathSegments: [String]
    /// The decoded query parameters in order.
    public var query: [(String, String)]
    /// The header fields.
    public var headers: HTTPHeaders
    /// The complete body.
    public var body: [UInt8]

    /// Creates a request from already decoded parts; `path` is split at every `/`.
    public init(method: HTTPMethod, path: String, query: [(String, String)] = [], headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [])
    {
        self.method = method
        self.pathSegments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Creates a request from a raw request target (`/v1/rooms?limit=5`), decoding path and query.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws(HTTPParseError) {
        let parsed = try HTTPTarget(target)
        self.method = method
        self.pathSegments = parsed.pathSegments
        self.query = parsed.query
        self.headers = headers
        self.body = body
    }

    /// The last value of a query parameter.
    public func queryValue(_ name: String) -> String? {
        query.last(where: { $0.0 == name })?.1
    }

    /// The media type of the body without parameters, lowercased (`application/json`), if declared.
    public var mediaType: String? {
        guard let value = headers.first("Content-Type") else { return nil }
        var type = value.utf8[...]
        if let semicolon = type.firstIndex(of: UInt8(ascii: ";")) { type = type[..<semicolon] }
        type = type.trimmingSpacesAndTabs()
        guard !type.isEmpty else { return nil }
        // Media types are ASCII tokens: lower-case them byte-wise (this runs on every request).
        guard type.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return String(Substring(type)) }
        return String(decoding: type.asciiLowercased(), as: UTF8.self)
    }
}

extension Substring.UTF8View {
    /// The bytes without leading and trailing spaces and tabs.
    func trimmingSpacesAndTabs() -> Substring.UTF8View {
        var slice = self
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice = slice.dropFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice = slice.dropLast() }
        return slice
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
