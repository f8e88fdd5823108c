/// How often a node refreshes and reads the shared state, and how long a silent node's share
/// lives. A node killed without warning leaves its presence members for at most
/// `shareLifetime + sweepInterval` (20 s) before every node has removed them.
public struct ClusterTimings: Sendable, Equatable {
    /// How often this node's share snapshot is stored, in milliseconds.
    public var storeInterval: Int64 = 1_000
    /// How long a stored share lives without being stored again, in milliseconds.
    public var shareLifetime: Int64 = 15_000
    /// How often every node's stored share is read (dead nodes dropped, missed deltas healed).
    public var sweepInterval: Int64 = 5_000

    /// The defaults.
    public init() {}

    /// Longest a dead node's presence members outlive it, in milliseconds.
    public var deadNodeBound: Int64 { shareLifetime + sweepInterval }
}
