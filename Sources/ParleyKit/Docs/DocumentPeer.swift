/// Another client present in the document (from its awareness state).
public struct DocumentPeer: Sendable, Hashable, Identifiable {
    /// Its y-protocols client id.
    public var clientID: UInt64
    /// What it said about itself.
    public var presence: DocumentPresence

    /// Creates a peer.
    public init(clientID: UInt64, presence: DocumentPresence) {
        self.clientID = clientID
        self.presence = presence
    }

    /// The client id.
    public var id: UInt64 { clientID }
}
