/// What is stored of a document's text: the snapshot and the log appended after it.
/// Applying the snapshot, then each update in order, rebuilds the document.
public struct DocumentContent: Sendable, Hashable {
    /// One merged update covering the log up to ``snapshotSeq``, or nil before the first compaction.
    public var snapshot: [UInt8]?
    /// The log sequence number the snapshot covers (0 without a snapshot).
    public var snapshotSeq: Int64
    /// The updates appended after the snapshot, in log order.
    public var updates: [[UInt8]]
    /// The sequence number of the newest update (0 for an empty document).
    public var lastSeq: Int64

    /// Creates a value.
    public init(snapshot: [UInt8]?, snapshotSeq: Int64, updates: [[UInt8]], lastSeq: Int64) {
        self.snapshot = snapshot
        self.snapshotSeq = snapshotSeq
        self.updates = updates
        self.lastSeq = lastSeq
    }

    /// The bytes stored: snapshot and log together.
    public var storedBytes: Int {
        (snapshot?.count ?? 0) + updates.reduce(0) { $0 + $1.count }
    }
}
