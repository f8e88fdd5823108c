import ParleyChannels
import ParleyNet
import ParleyWire

/// Joining other nodes over Redis (`--redis`): the bus, its health and its start.
extension ParleyServer {
    /// The bus membership `--redis` asks for, on the first loop; nil for one node alone.
    static func clusterMembership(_ options: ServeOptions, loops: [EventLoop]) -> ClusterMembership? {
        guard let url = options.cluster.redisURL else { return nil }
        let statistics = ClusterStatistics()
        let transport = RedisClusterTransport(url: url, loop: loops[0], statistics: statistics, logger: Logger(label: "bus"))
        return ClusterMembership(nodeID: nodeID(options), transport: transport, statistics: statistics)
    }

    /// `--node-id`, else `hostname:port` (with a random suffix for port 0, which each start
    /// binds differently).
    static func nodeID(_ options: ServeOptions) -> String {
        guard options.port == 0, options.cluster.nodeID == nil else { return options.cluster.resolvedNodeID(port: options.port) }
        var random = SystemRandomNumberGenerator()
        return options.cluster.resolvedNodeID(port: 0) + "-" + String(random.next() as UInt32, radix: 16)
    }

    /// The `/healthz` body: `{"status":"ok"}` for one node; with a bus, the node id and the
    /// bus's state, `"degraded"` with the reason while Redis is unreachable (the node keeps
    /// serving its own clients; the answer stays 200).
    static func healthBody(cluster: ClusterChannelHub?) -> String {
        guard let cluster else { return #"{"status":"ok"}"# }
        let state = cluster.statistics.state
        var fields: JSONObject = [
            "status": .string(state.connected ? "ok" : "degraded"), "node": .string(cluster.nodeID),
            "bus": .string(state.connected ? "connected" : "disconnected")
        ]
        if !state.connected { fields["reason"] = .string(state.reason ?? "unknown") }
        return String(decoding: JSONWriter.serialize(.object(fields)), as: UTF8.self)
    }

    /// The start-up log fields that describe the bus.
    var clusterLogFields: [(String, String)] {
        guard let cluster = channels?.cluster else { return [] }
        return [("node", cluster.nodeID), ("bus", options.cluster.redisURL.map { "\($0)" } ?? "")]
    }
}
