/// A document session's state at one moment: the text, who else is there, the connection.
public struct DocumentSnapshot: Sendable, Equatable {
    /// The text.
    public var text: String
    /// The number of Unicode scalars in the text.
    public var count: Int
    /// Increases with every change of the text (local or remote).
    public var version: Int
    /// The other clients present, by client id.
    public var peers: [DocumentPeer]
    /// This client's own cursor or selection.
    public var selection: DocumentSelection?
    /// The connection.
    public var state: DocumentSessionState
    /// Messages from the server that could not be applied (malformed or invalid), ignored.
    public var rejectedMessages: Int

    /// Creates a snapshot.
    public init(
        text: String = "", count: Int = 0, version: Int = 0, peers: [DocumentPeer] = [],
        selection: DocumentSelection? = nil, state: DocumentSessionState = .idle, rejectedMessages: Int = 0
    ) {
        self.text = text
        self.count = count
        self.version = version
        self.peers = peers
        self.selection = selection
        self.state = state
        self.rejectedMessages = rejectedMessages
    }
}
