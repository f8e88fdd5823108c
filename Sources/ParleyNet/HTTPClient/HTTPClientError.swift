/// Why an ``HTTPClient`` request failed, with a stable code.
public struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable identifiers of client failures (safe to log and match on).
    public enum Code: String, Sendable {
        /// The URL is not `http://` or `https://` with a valid authority.
        case invalidURL = "http_client.invalid_url"
        /// The host name could not be resolved, or no connection could be opened.
        case connectFailed = "http_client.connect_failed"
        /// TLS could not be set up or its handshake failed.
        case tls = "http_client.tls"
        /// The connection broke or closed before the whole response arrived.
        case network = "http_client.network"
        /// No byte moved for the configured timeout.
        case timedOut = "http_client.timed_out"
        /// The response was not valid HTTP/1.1 or was over a limit.
        case malformedResponse = "http_client.malformed_response"
        /// The request was cancelled (``HTTPClientTask/cancel()`` or the Swift task awaiting it).
        case cancelled = "http_client.cancelled"
    }

    /// The failure.
    public var code: Code
    /// A human-readable explanation; not stable.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The stable code and the message.
    public var description: String { "\(code.rawValue): \(message)" }

    static let cancelled = HTTPClientError(.cancelled, "the request was cancelled")
}
