/// Why a ParleyKit call failed, or a wire value could not be read: a stable code, the
/// server's answer when there was one, and a message for people.
public struct ParleyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable classes of failure.
    public enum Code: String, Sendable {
        /// The server could not be reached or the connection broke.
        case network = "parley.network"
        /// The server answered with an error (see ``status`` and ``serverCode``).
        case server = "parley.server"
        /// The server's answer could not be understood.
        case decoding = "parley.decoding"
        /// A URL or argument was malformed.
        case invalidArgument = "parley.invalid_argument"
        /// No token could be obtained.
        case authentication = "parley.authentication"
        /// The local outbox or cache failed.
        case storage = "parley.storage"
        /// The call was cancelled.
        case cancelled = "parley.cancelled"
        /// The client was closed (``ParleyClient/close()`` or ``ParleyClient/signOut(deletingLocalData:)``);
        /// nothing more can be done with it.
        case closed = "parley.closed"
        /// The operation did not finish in time.
        case timedOut = "parley.timed_out"
    }

    /// The class of failure.
    public var code: Code
    /// The HTTP status of a server error.
    public var status: Int?
    /// The server's stable error code (`not_member`, `token_expired`…).
    public var serverCode: String?
    /// Seconds the server asked to wait before retrying (429).
    public var retryAfter: Int?
    /// An explanation for people; not stable.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String, status: Int? = nil, serverCode: String? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.serverCode = serverCode
        self.retryAfter = retryAfter
    }

    /// A one-line description for logs.
    public var description: String {
        var text = code.rawValue
        if let status { text += " \(status)" }
        if let serverCode { text += " \(serverCode)" }
        return text + ": " + message
    }

    /// Whether retrying the same request later may succeed (network trouble, 5xx, 429, 408,
    /// also from the token endpoint); other answers are final for that request.
    public var isTransient: Bool {
        switch code {
        case .network, .timedOut: return true
        case .server, .authentication:
            guard let status else { return false }
            return status >= 500 || status == 429 || status == 408
        default: return false
        }
    }

    /// Whether the token was refused (401), so a fresh one may help.
    public var isAuthenticationFailure: Bool { code == .server && status == 401 }

    /// Whether the user cannot be signed in until something changes: no token could be obtained
    /// (the token endpoint refused or answered nonsense) or the server refused the token it got.
    public var isSignInFailure: Bool { (code == .authentication && !isTransient) || isAuthenticationFailure }
}
