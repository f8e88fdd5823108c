import ParleyPlatform
import ParleySystem

/// An I/O failure with a stable code, the `errno` behind it (0 if none) and a detail text.
public struct NetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable identifiers for the kinds of network failure.
    public enum Code: String, Sendable {
        /// The peer reset the connection (ECONNRESET).
        case connectionReset = "net.connection_reset"
        /// Writing to a connection the peer already closed (EPIPE).
        case brokenPipe = "net.broken_pipe"
        /// Nobody listens at the address (ECONNREFUSED).
        case connectionRefused = "net.connection_refused"
        /// The address is taken (EADDRINUSE).
        case addressInUse = "net.address_in_use"
        /// A host name could not be resolved.
        case resolveFailed = "net.resolve_failed"
        /// An operation or an idle connection ran out of time.
        case timedOut = "net.timed_out"
        /// The outbound queue exceeded its bound.
        case outboundOverflow = "net.outbound_overflow"
        /// The connection or loop is already closed.
        case closed = "net.closed"
        /// Out of file descriptors (EMFILE/ENFILE).
        case tooManyOpenFiles = "net.too_many_open_files"
        /// A malformed address, URL or argument.
        case invalidArgument = "net.invalid_argument"
        /// The peer violated the protocol spoken on the connection.
        case protocolViolation = "net.protocol_violation"
        /// TLS settings could not be loaded: a certificate or key file missing, unreadable,
        /// not PEM, or a key that does not belong to the certificate.
        case tlsConfiguration = "net.tls_configuration"
        /// The TLS handshake failed: not TLS at all, no common version or cipher, an
        /// untrusted or mismatched certificate.
        case tlsHandshakeFailed = "net.tls_handshake_failed"
        /// A TLS record was rejected after the handshake (bad MAC, unexpected message).
        case tlsProtocol = "net.tls_protocol"
        /// Any other system-call failure.
        case io = "net.io"
    }

    /// The kind of failure.
    public let code: Code
    /// The `errno` value behind it, or 0.
    public let errno: Int32
    /// A human-readable detail (the failing call, the address...).
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, errno: Int32 = 0, _ detail: String) {
        self.code = code
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        errno == 0 ? "\(code.rawValue): \(detail)" : "\(code.rawValue): \(detail) (\(String(cString: strerror(errno))))"
    }

    /// Maps an `errno` from a failed call to the closest code.
    static func fromErrno(_ value: Int32, _ call: String) -> NetError {
        NetError(Code(SystemCallError.Code(errno: value)), errno: value, call)
    }
}

extension NetError.Code {
    /// The network code for a system-call code: the kinds both know share the name after the
    /// prefix (`system.broken_pipe`, `net.broken_pipe`); the rest are ``io``.
    init(_ system: SystemCallError.Code) {
        self = Self(rawValue: "net." + system.rawValue.dropFirst("system.".count)) ?? .io
    }
}
