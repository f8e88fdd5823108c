extension HTTPRequestHead {
    /// What a request's `Expect` header asks of the server.
    public enum Expectation: Sendable, Equatable {
        /// No expectation (or one that HTTP/1.0 rules say to ignore).
        case none
        /// `Expect: 100-continue`: send 100 Continue before reading the body (or answer instead).
        case `continue`
        /// Any other expectation; the server answers 417 Expectation Failed.
        case unsupported(String)
    }

    /// The request's expectation; `100-continue` in an HTTP/1.0 request is ignored (RFC 9110 §10.1.1).
    public var expectation: Expectation {
        let values = headers.values(for: "Expect")
        guard !values.isEmpty else { return .none }
        let tokens = headers.tokens("Expect")
        if tokens == ["100-continue"] { return version == .http1_0 ? .none : .continue }
        return .unsupported(values.joined(separator: ", "))
    }

    /// Whether the client waits for 100 Continue before sending its body.
    public var expectsContinue: Bool { expectation == .continue }

    /// Whether the request asks to switch protocols (`Connection: upgrade` plus an `Upgrade` header).
    public var isUpgrade: Bool {
        headers.tokens("Connection").contains("upgrade") && !upgradeProtocols.isEmpty
    }

    /// The protocols listed in `Upgrade`, lowercased, in the client's order of preference.
    public var upgradeProtocols: [String] { headers.tokens("Upgrade") }

    /// The declared body length, when Content-Length is present and valid.
    public var contentLength: Int? {
        guard let value = headers.first("Content-Length") else { return nil }
        let first = value.split(separator: ",").first.map { $0.trimmingASCIIWhitespace() } ?? ""
        guard !first.isEmpty, first.utf8.count <= 18, first.utf8.allSatisfy(HTTPSyntax.isDigit) else { return nil }
        return Int(first)
    }

    /// Whether the body is chunked (`Transfer-Encoding` ending in `chunked`).
    public var isChunked: Bool { headers.tokens("Transfer-Encoding").last == "chunked" }

    /// Whether the request says a body follows its head (a non-zero Content-Length, or
    /// chunked); a request that cannot be framed counts as having one.
    public var announcesBody: Bool {
        if headers.contains("Transfer-Encoding") { return true }
        guard headers.contains("Content-Length") else { return false }
        return contentLength != 0
    }

    /// The request target split into decoded path, segments and query.
    public func parsedTarget() throws(HTTPParseError) -> HTTPTarget { try HTTPTarget(target) }
}
