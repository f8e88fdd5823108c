import ParleyChannels

/// Limits and policies of the documents service.
public struct DocumentsConfiguration: Sendable, Hashable {
    /// The root type whose text ``DocumentsService/text(documentID:)`` reads (`doc.getText(name)`
    /// in Yjs); documents may hold any other roots as well.
    public var rootName = "text"
    /// The largest y-protocols message accepted, in bytes.
    public var maxMessageBytes = 1 << 20
    /// The largest single update accepted, in bytes.
    public var maxUpdateBytes = 1 << 20
    /// The most bytes a document may occupy in storage (snapshot plus log).
    public var maxDocumentBytes = 16 << 20
    /// Compact the log into a snapshot once it holds this many updates…
    public var compactAfterUpdates = 500
    /// …or this many bytes.
    public var compactAfterBytes = 1 << 20
    /// Awareness timeout in milliseconds (30 s as in y-protocols).
    public var awarenessTimeout: Int64 = 30_000
    /// The largest awareness state (JSON) of one client, in bytes.
    public var maxAwarenessStateBytes = 16 << 10
    /// The most awareness clients one participant may speak for.
    public var maxAwarenessClientsPerParticipant = 8
    /// How fast one user may create documents (the app's `limits.rates.documents`).
    public var creationRate = UserWrite.documents.defaultLimit
    /// How long (ms) a participant may stay silent before the sweep forgets it (realtime
    /// participants that never leave explicitly).
    public var participantIdleTimeout: Int64 = 120_000
    /// Test hook (ms, 0 for none): how long loading a document waits after reading the
    /// store, so tests can publish updates on other nodes while a node loads.
    public var loadDelayForTesting: Int64 = 0

    /// The defaults.
    public init() {}
}
