/// Something the client dealt with on its own that an app may want to log or count: an event
/// it could not decode, a local store failure, a background request that failed, a refused
/// subscription or sign-in. Delivered to ``ParleyConfiguration/diagnostics``; nothing is
/// silently dropped.
public struct ParleyDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What the client was doing.
    public enum Kind: String, Sendable {
        /// Getting the token or signing the realtime connection in.
        case signIn = "sign_in"
        /// The realtime connection failed or closed.
        case connection
        /// A room's channel subscription failed or was refused.
        case subscription
        /// A realtime event or stored record could not be decoded; it was skipped.
        case decoding
        /// The local outbox or cache failed.
        case storage
        /// A request the client made on its own (typing notice, read cursor, history fill,
        /// outbox send) failed.
        case backgroundRequest = "background_request"
    }

    /// What the client was doing.
    public var kind: Kind
    /// What went wrong.
    public var error: ParleyError
    /// The room concerned, when there is one.
    public var roomID: String?

    /// Creates a diagnostic.
    public init(_ kind: Kind, _ error: ParleyError, roomID: String? = nil) {
        self.kind = kind
        self.error = error
        self.roomID = roomID
    }

    /// A one-line description for logs.
    public var description: String {
        kind.rawValue + (roomID.map { " [\($0)]" } ?? "") + ": " + error.description
    }
}
