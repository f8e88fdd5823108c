/// Why an HTTP/1.1 response could not be read, with a stable code.
public struct HTTPResponseParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable identifiers of response failures (safe to log and match on).
    public enum Code: String, Sendable, Hashable {
        /// The status line is not `HTTP/1.x NNN [reason]`.
        case malformedStatusLine = "malformed_status_line"
        /// A header line is not `token ":" value`, or is folded.
        case malformedHeader = "malformed_header"
        /// The head (or a chunk-size or trailer line) is longer than the parser's head limit.
        case headTooLarge = "head_too_large"
        /// The body is longer than the parser's body limit.
        case bodyTooLarge = "body_too_large"
        /// Content-Length is not one plain decimal number.
        case invalidContentLength = "invalid_content_length"
        /// A chunk-size line is not hexadecimal, or chunk data does not end with CRLF.
        case malformedChunk = "malformed_chunk"
        /// The connection ended before the response was complete.
        case truncated = "truncated"
    }

    /// The failure.
    public var code: Code
    /// A human-readable explanation.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The stable code and the message, e.g. `malformed_chunk: ...`.
    public var description: String { "\(code.rawValue): \(message)" }
}
