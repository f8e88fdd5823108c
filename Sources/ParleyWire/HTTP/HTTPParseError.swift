/// Why an HTTP/1.1 request (or a request target) was rejected, with the status to answer.
///
/// `code` is a stable, machine-readable string meant for logs, metrics and the JSON error
/// body (`{"error":{"code","message"}}`); `message` is for humans and may change.
/// The well-known codes are listed in ``HTTPParseError/Code``.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable error code, e.g. `"headers_too_large"`.
    public var code: String
    /// The status the server should answer with before closing the connection.
    public var status: HTTPStatus
    /// A human-readable explanation.
    public var message: String

    /// Creates an error.
    public init(code: String, status: HTTPStatus, message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    /// `code (status): message`.
    public var description: String { "\(code) (\(status.code)): \(message)" }

    /// The stable codes produced by the parser and by ``HTTPTarget``.
    public enum Code {
        /// The request line is longer than `Limits.maxRequestLineLength` (414).
        public static let requestLineTooLong = "request_line_too_long"
        /// The header (or trailer) section is larger than `Limits.maxHeaderBytes` (431).
        public static let headersTooLarge = "headers_too_large"
        /// More header (plus trailer) fields than `Limits.maxHeaderCount` (431).
        public static let tooManyHeaders = "too_many_headers"
        /// The body is larger than the parser's `maxBodySize` (413).
        public static let bodyTooLarge = "body_too_large"
        /// The request line does not have the form `METHOD SP target SP HTTP/x.y` (400).
        public static let malformedRequestLine = "malformed_request_line"
        /// A well-formed version other than HTTP/1.x (505).
        public static let unsupportedVersion = "unsupported_version"
        /// A header line that is not `token ":" value` with legal bytes (400).
        public static let malformedHeader = "malformed_header"
        /// A header line continued with obs-fold (leading space or tab) (400).
        public static let obsFold = "obs_fold"
        /// Content-Length that is not a plain decimal number (400).
        public static let invalidContentLength = "invalid_content_length"
        /// Differing Content-Length values, or Content-Length together with Transfer-Encoding (400).
        public static let conflictingLength = "conflicting_length"
        /// Transfer-Encoding that does not end in a single `chunked`, or is sent by HTTP/1.0 (400).
        public static let invalidTransferEncoding = "invalid_transfer_encoding"
        /// A transfer coding other than `chunked` (501).
        public static let unsupportedTransferEncoding = "unsupported_transfer_encoding"
        /// A malformed chunk-size line or missing CRLF after chunk data (400).
        public static let badChunk = "bad_chunk"
        /// An HTTP/1.1 request without a Host header (400).
        public static let missingHost = "missing_host"
        /// An HTTP/1.1 request with more than one Host header (400).
        public static let multipleHosts = "multiple_hosts"
        /// A request target that is neither origin-form, absolute-form nor `*` (400).
        public static let invalidTarget = "invalid_target"
        /// A `%` not followed by two hex digits (400).
        public static let invalidPercentEncoding = "invalid_percent_encoding"
        /// A percent-encoded NUL byte (`%00`) (400).
        public static let encodedNul = "encoded_nul"
        /// Percent-decoded bytes that are not valid UTF-8 (400).
        public static let invalidUTF8 = "invalid_utf8"
    }

    static func requestLineTooLong(_ limit: Int) -> HTTPParseError {
        .init(code: Code.requestLineTooLong, status: .uriTooLong, message: "request line exceeds \(limit) bytes")
    }
    static func headersTooLarge(_ limit: Int) -> HTTPParseError {
        .init(
            code: Code.headersTooLarge, status: .requestHeaderFieldsTooLarge,
            message: "header section exceeds \(limit) bytes")
    }
    static func tooManyHeaders(_ limit: Int) -> HTTPParseError {
        .init(
            code: Code.tooManyHeaders, status: .requestHeaderFieldsTooLarge, message: "more than \(limit) header fields"
        )
    }
    static func bodyTooLarge(_ limit: Int) -> HTTPParseError {
        .init(code: Code.bodyTooLarge, status: .contentTooLarge, message: "body exceeds \(limit) bytes")
    }
    static func malformedRequestLine(_ why: String) -> HTTPParseError {
        .init(code: Code.malformedRequestLine, status: .badRequest, message: "malformed request line: \(why)")
    }
    static func unsupportedVersion(_ version: String) -> HTTPParseError {
        .init(
            code: Code.unsupportedVersion, status: .httpVersionNotSupported,
            message: "\(version) is not supported; use HTTP/1.1")
    }
    static func malformedHeader(_ why: String) -> HTTPParseError {
        .init(code: Code.malformedHeader, status: .badRequest, message: "malformed header field: \(why)")
    }
    static let obsFold = HTTPParseError(
        code: Code.obsFold, status: .badRequest,
        message: "obsolete line folding (a line starting with whitespace) is not allowed")
    static let invalidContentLength = HTTPParseError(
        code: Code.invalidContentLength, status: .badRequest, message: "Content-Length must be a decimal number")
    static func conflictingLength(_ why: String) -> HTTPParseError {
        .init(code: Code.conflictingLength, status: .badRequest, message: why)
    }
    static func invalidTransferEncoding(_ why: String) -> HTTPParseError {
        .init(code: Code.invalidTransferEncoding, status: .badRequest, message: why)
    }
    static func unsupportedTransferEncoding(_ coding: String) -> HTTPParseError {
        .init(
            code: Code.unsupportedTransferEncoding, status: .notImplemented,
            message: "transfer coding '\(coding)' is not implemented; only chunked is")
    }
    static func badChunk(_ why: String) -> HTTPParseError {
        .init(code: Code.badChunk, status: .badRequest, message: "malformed chunked body: \(why)")
    }
    static let missingHost = HTTPParseError(
        code: Code.missingHost, status: .badRequest, message: "HTTP/1.1 requests must carry a Host header")
    static let multipleHosts = HTTPParseError(
        code: Code.multipleHosts, status: .badRequest, message: "more than one Host header")
}
