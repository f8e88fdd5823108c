/// Why an opening handshake failed, with a stable code and the HTTP answer a server gives.
public struct WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable identifiers of handshake failures (safe to log, match on, document).
    public enum Code: String, Sendable, Hashable {
        /// Server: the request method is not GET.
        case methodNotGet = "method_not_get"
        /// Server: the request is not HTTP/1.1 or later.
        case httpVersionTooOld = "http_version_too_old"
        /// Server: no `Upgrade: websocket`.
        case missingUpgrade = "missing_upgrade"
        /// Server: no `upgrade` token in `Connection`.
        case missingConnectionUpgrade = "missing_connection_upgrade"
        /// Server: `Sec-WebSocket-Key` missing, repeated, or not base64 of 16 bytes.
        case invalidKey = "invalid_key"
        /// Server: `Sec-WebSocket-Version` missing or not 13 (answered with 426).
        case unsupportedVersion = "unsupported_version"
        /// Either side: a malformed `Sec-WebSocket-Extensions` header.
        case invalidExtensions = "invalid_extensions"
        /// Server: the application chose a subprotocol the client did not request.
        case subprotocolNotRequested = "subprotocol_not_requested"
        /// Client: the response status is not 101.
        case unexpectedStatus = "unexpected_status"
        /// Client: the response lacks `Upgrade: websocket` / `Connection: upgrade`.
        case upgradeNotConfirmed = "upgrade_not_confirmed"
        /// Client: `Sec-WebSocket-Accept` missing or wrong.
        case invalidAccept = "invalid_accept"
        /// Client: the server accepted an extension or parameters that were not offered.
        case unexpectedExtension = "unexpected_extension"
        /// Client: the server selected a subprotocol that was not requested.
        case unexpectedSubprotocol = "unexpected_subprotocol"
        /// Client: the response head is not valid HTTP.
        case malformedResponse = "malformed_response"
        /// Client: the response head exceeds the size limit.
        case responseTooLarge = "response_too_large"
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

    /// The status a server answers with: 426 for a wrong version, 500 for an application
    /// error, 400 otherwise (client-side codes map to 502 for proxies that report them).
    public var status: HTTPStatus {
        switch code {
        case .unsupportedVersion: HTTPStatus(426)
        case .subprotocolNotRequested: HTTPStatus(500)
        case .unexpectedStatus, .upgradeNotConfirmed, .invalidAccept, .unexpectedExtension,
            .unexpectedSubprotocol, .malformedResponse, .responseTooLarge:
            HTTPStatus(502)
        default: .badRequest
        }
    }

    /// The response head a server sends for this error (426 carries `Sec-WebSocket-Version: 13`).
    public var response: HTTPResponseHead {
        var headers = HTTPHeaders()
        if code == .unsupportedVersion { headers.add("Sec-WebSocket-Version", "13") }
        headers.add("Connection", "close")
        headers.add("Content-Length", "0")
        return HTTPResponseHead(status: status, headers: headers)
    }

    /// The stable code and the message, e.g. `invalid_key: ...`.
    public var description: String { "\(code.rawValue): \(message)" }
}
