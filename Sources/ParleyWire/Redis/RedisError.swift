/// Why a Redis command, subscription or connection failed.
///
/// `code` is stable, for logs, metrics and tests; `message` is for people and may change.
/// Only ``Code/serverError`` is about one command alone (the server refused it and the
/// connection goes on); every other code either refused the call before it was sent or
/// ended the connection it was on.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable error code.
    public var code: Code
    /// A human-readable explanation (the server's `-ERR` text for ``Code/serverError``).
    public var message: String

    /// The stable codes.
    public enum Code: String, Sendable {
        /// The server answered the command with an error reply (`-ERR …`, `-WRONGTYPE …`).
        case serverError = "redis_server_error"
        /// The server's bytes are not RESP (garbage, or a length over the parser's limits);
        /// the connection was closed.
        case protocolError = "redis_protocol_error"
        /// A well-formed reply that cannot answer what was asked (a reply with no command
        /// outstanding, a pub/sub confirmation for a channel never asked for); the connection was closed.
        case unexpectedReply = "redis_unexpected_reply"
        /// `AUTH` was refused (wrong user or password, or a password is required).
        case authenticationFailed = "redis_auth_failed"
        /// `SELECT` of the URL's database was refused.
        case selectFailed = "redis_select_failed"
        /// The TCP connection could not be opened, or it closed with the command outstanding.
        case connectionClosed = "redis_connection_closed"
        /// No reply (or no connection) within the configured time; the connection was closed.
        case timedOut = "redis_timed_out"
        /// The connection is down and waiting to reconnect; the command was not sent.
        case notConnected = "redis_not_connected"
        /// An ordinary command on a connection in subscriber mode (only PING and the
        /// (un)subscribe commands are allowed there).
        case subscriberMode = "redis_subscriber_mode"
        /// The caller's task was cancelled; a reply that still comes is read and dropped.
        case cancelled = "redis_cancelled"
        /// The client was closed.
        case clientClosed = "redis_client_closed"
        /// The call itself was malformed (an empty command, a subscribe with no channels).
        case invalidArgument = "redis_invalid_argument"
    }

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
