/// A WebSocket close status code (RFC 6455 §7.4 and the IANA registry).
///
/// Any 16-bit value is representable so that codes received from a peer can be reported;
/// `isValidOnWire` says whether a code may appear in a close frame.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric status code.
    public let rawValue: UInt16
    /// Creates a close code from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Creates a close code from its number.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection has been fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (server shutdown, page navigation).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer violated the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: the peer sent a data type the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: a close frame carried no status code (reported locally, never sent).
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: the connection dropped without a close frame (reported locally, never sent).
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: a message's payload was inconsistent with its type (invalid UTF-8 text).
    public static let invalidPayload = WebSocketCloseCode(1007)
    /// 1008: a message violated the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a message was too big to process.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server hit an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)
    /// 1012: the service is restarting.
    public static let serviceRestart = WebSocketCloseCode(1012)
    /// 1013: try again later.
    public static let tryAgainLater = WebSocketCloseCode(1013)
    /// 1014: a gateway received an invalid response.
    public static let badGateway = WebSocketCloseCode(1014)

    /// Whether this code may be sent in a close frame: the defined codes above (without
    /// 1005/1006/1015), and the 3000–4999 range for libraries and applications.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// A stable snake_case name for logs and metrics.
    public var name: String {
        switch rawValue {
        case 1000: "normal_closure"
        case 1001: "going_away"
        case 1002: "protocol_error"
        case 1003: "unsupported_data"
        case 1005: "no_status_received"
        case 1006: "abnormal_closure"
        case 1007: "invalid_payload"
        case 1008: "policy_violation"
        case 1009: "message_too_big"
        case 1010: "mandatory_extension"
        case 1011: "internal_error"
        case 1012: "service_restart"
        case 1013: "try_again_later"
        case 1014: "bad_gateway"
        case 1015: "tls_handshake"
        case 3000...3999: "registered_\(rawValue)"
        case 4000...4999: "private_\(rawValue)"
        default: "unknown_\(rawValue)"
        }
    }

    /// The code and its name, e.g. `1000 normal_closure`.
    public var description: String { "\(rawValue) \(name)" }
}
