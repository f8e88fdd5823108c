/// The realtime connection as the app should show it.
public enum ConnectionState: Sendable, Equatable {
    /// Not started, or disconnected on request.
    case idle
    /// Opening the first connection.
    case connecting
    /// Connected and signed in; events flow.
    case online
    /// Not connected and not trying (the server refused, or a reason to show).
    case offline(reason: String)
    /// Lost; the `attempt`-th reconnect starts after `delay`.
    case reconnecting(attempt: Int, delay: Duration)

    /// Whether events flow.
    public var isOnline: Bool { self == .online }
}
