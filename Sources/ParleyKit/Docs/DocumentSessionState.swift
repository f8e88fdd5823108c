/// Where a document session's connection is.
public enum DocumentSessionState: Sendable, Equatable {
    /// Not started yet.
    case idle
    /// Opening the connection.
    case connecting
    /// Connected; the first exchange of state vectors is under way.
    case syncing
    /// Connected and in sync: local edits go out at once.
    case synced
    /// The connection was lost; local edits are kept and merged when it is back.
    case reconnecting(attempt: Int, delay: Duration)
    /// Stopped: closed by the app, or the server refused the document or an edit (the reason says why).
    case closed(reason: String)

    /// Whether the session is connected and in sync.
    public var isSynced: Bool { self == .synced }
}
