/// How a channels service joins a cluster: its node id, the bus, and the timings.
public struct ClusterMembership: Sendable {
    /// This node's id.
    public var nodeID: String
    /// The bus.
    public var transport: any ClusterTransport
    /// The refresh and expiry periods.
    public var timings: ClusterTimings
    /// The bus's counters (shared with the transport, which records latency and connection state).
    public var statistics: ClusterStatistics

    /// Creates a membership.
    public init(
        nodeID: String, transport: any ClusterTransport, timings: ClusterTimings = ClusterTimings(),
        statistics: ClusterStatistics = ClusterStatistics()
    ) {
        self.nodeID = nodeID
        self.transport = transport
        self.timings = timings
        self.statistics = statistics
    }
}
