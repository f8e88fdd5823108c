/// One connection of one user taking part in a document: a y-websocket peer, or a realtime
/// (Pusher) connection subscribed to the document's channel.
public struct DocumentParticipant: Hashable, Sendable, CustomStringConvertible {
    /// The authenticated user (the server verified their token).
    public var userID: String
    /// The connection, unique among the server's live connections (for Pusher, the socket id).
    public var connectionID: String

    /// Creates a participant.
    public init(userID: String, connectionID: String) {
        self.userID = userID
        self.connectionID = connectionID
    }

    /// `user@connection`, for logs.
    public var description: String { "\(userID)@\(connectionID)" }
}
