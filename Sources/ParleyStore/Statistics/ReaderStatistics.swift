/// The reader pool's figures: its connections (threads), how many of them are running a read,
/// reads waiting for one, and reads that failed in the database (not answers like "not found").
public struct ReaderStatistics: Sendable, Hashable {
    /// Reader connections open.
    public var connections = 0
    /// Reads running now.
    public var busy = 0
    /// Reads waiting for a free reader.
    public var queued = 0
    /// Reads that failed with a database error (busy, I/O, corruption, lost connection, internal).
    public var failures = 0
    /// Times a reader reconnected (PostgreSQL: the server went away or restarted).
    public var reconnects = 0

    /// Zeros.
    public init() {}

    /// The given figures.
    public init(connections: Int, busy: Int, queued: Int, failures: Int, reconnects: Int) {
        self.connections = connections
        self.busy = busy
        self.queued = queued
        self.failures = failures
        self.reconnects = reconnects
    }
}
