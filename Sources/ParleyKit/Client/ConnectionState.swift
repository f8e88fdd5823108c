/// The realtime connection as the app should show it.
public enum ConnectionState: Sendable, Equatable {
    /// Not started, or disconnected on request.
    case idle
    /// Getting the user's token, opening the connection and signing it in.
    case signingIn
    /// Connected and signed in; events flow.
    case online
    /// The user cannot be signed in: the token endpoint refused (401, 404…) or answered
    /// without a token, or the server refused the token. Not retrying; call
    /// ``ParleyClient/connect()`` again once the cause is fixed (for example a new sign-in).
    case authenticationFailed(ParleyError)
    /// Not connected and not trying (the server refused the connection, with its reason).
    case offline(reason: String)
    /// Offline, retrying: the `attempt`-th reconnect starts after `delay`.
    case reconnecting(attempt: Int, delay: Duration)

    /// Whether events flow.
    public var isOnline: Bool { self == .online }

    /// The error that stopped the client from signing in, when that is the state.
    public var authenticationError: ParleyError? {
        if case .authenticationFailed(let error) = self { return error }
        return nil
    }
}
