/// The state of a document's log after an append: what the compaction policy needs.
public struct DocumentAppendResult: Sendable, Hashable {
    /// The sequence number of the newest update.
    public var lastSeq: Int64
    /// Updates in the log after the snapshot.
    public var logCount: Int
    /// Bytes in the log after the snapshot.
    public var logBytes: Int
    /// Bytes of the snapshot.
    public var snapshotBytes: Int

    /// Creates a value.
    public init(lastSeq: Int64, logCount: Int, logBytes: Int, snapshotBytes: Int) {
        self.lastSeq = lastSeq
        self.logCount = logCount
        self.logBytes = logBytes
        self.snapshotBytes = snapshotBytes
    }
}
