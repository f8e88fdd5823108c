/// An HTTP request method.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as it appears on the request line.
    public let rawValue: String
    /// Creates a method from its token.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let GET = HTTPMethod(rawValue: "GET")
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    public static let POST = HTTPMethod(rawValue: "POST")
    public static let PUT = HTTPMethod(rawValue: "PUT")
    public static let PATCH = HTTPMethod(rawValue: "PATCH")
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")
}

/// An HTTP protocol version.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major version number.
    public var major: Int
    /// The minor version number.
    public var minor: Int
    /// Creates a version from its numbers.
    public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// The parsed head of an HTTP request: request line and header fields.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The request method.
    public var method: HTTPMethod
    /// The request target exactly as sent (still percent-encoded, with the query).
    public var target: String
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders

    /// Creates a request head.
    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// Whether the connection stays open after this request (HTTP/1.1 default, `Connection` overrides).
    public var keepAlive: Bool {
        let connection = headers.tokens("Connection")
        if connection.contains("close") { return false }
        if version == .http1_0 { return connection.contains("keep-alive") }
        return true
    }
}

/// An HTTP response status: code and reason phrase.
public struct HTTPStatus: Hashable, Sendable {
    /// The three-digit status code.
    public var code: Int
    /// The reason phrase sent on the status line.
    public var reason: String
    /// Creates a status; the reason defaults to the standard phrase.
    public init(_ code: Int, _ reason: String? = nil) {
        self.code = code
        self.reason = reason ?? HTTPStatus.standardReason(code)
    }

    public static let ok = HTTPStatus(200)
    public static let switchingProtocols = HTTPStatus(101)
    public static let badRequest = HTTPStatus(400)
    public static let notFound = HTTPStatus(404)

    /// The standard reason phrase of a status code.
    public static func standardReason(_ code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(code)"
        }
    }
}

/// The head of an HTTP response: status and header fields.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The response status.
    public var status: HTTPStatus
    /// The protocol version on the status line.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders
    /// Creates a response head.
    public init(status: HTTPStatus, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.version = version
        self.headers = headers
    }
}
