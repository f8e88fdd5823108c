/// The bus between nodes as the cluster hub sees it; Redis in the server (`RedisClusterTransport`),
/// an in-memory bus in tests. Every method returns at once; work happens elsewhere.
public protocol ClusterTransport: AnyObject, Sendable {
    /// Starts delivering every node's messages (this node's own included) to `handler`, one at
    /// a time, in the order each sender broadcast them.
    func start(handler: @escaping @Sendable ([UInt8]) -> Void)
    /// Sends `payload` to every node. Calls made one after another are delivered in that order.
    func broadcast(_ payload: [UInt8])
    /// Stores this node's share snapshot; it lapses after `ttlMilliseconds` unless stored again
    /// (so a dead node's share disappears by itself).
    func storeShare(node: String, _ snapshot: [UInt8], ttlMilliseconds: Int64)
    /// Reads every node's stored share snapshot (node id → bytes) and calls `completion` with
    /// them, or with nil when the store cannot be read (nothing is then concluded).
    func loadShares(_ completion: @escaping @Sendable ([String: [UInt8]]?) -> Void)
    /// Stores a cache channel's last event (an encoded envelope) under `key` for `ttlMilliseconds`.
    func storeCache(key: String, _ value: [UInt8], ttlMilliseconds: Int64)
    /// Reads every stored cache channel event and calls `completion` with them (empty when
    /// the store cannot be read).
    func loadCaches(_ completion: @escaping @Sendable ([[UInt8]]) -> Void)
    /// Records, in call order, this node's arrivals at and departures from channels and
    /// presence members, and calls `completion` with those that changed the cluster (the first
    /// node arrived, the last one left), decided atomically by the store so two nodes never
    /// both see the same change; empty when the store cannot be reached.
    func claim(node: String, _ claims: [ClusterClaim], completion: @escaping @Sendable ([ClusterClaim]) -> Void)
    /// Sets who hears of the departures made for a node whose share lapsed (it died): the
    /// node that removes its claims from the store reports each cluster change once.
    func setLapseHandler(_ handler: @escaping @Sendable ([ClusterClaim]) -> Void)
    /// Drops the claims an earlier process left under this node id (it died and this one
    /// took its id before its share lapsed), reporting the departures to the lapse handler.
    func releaseEarlierClaims(node: String)
    /// Stops: no handler call after this returns.
    func stop()
}

extension ClusterTransport {
    /// A transport without a shared store decides alone: every claim is the cluster's change.
    public func claim(node: String, _ claims: [ClusterClaim], completion: @escaping @Sendable ([ClusterClaim]) -> Void) {
        completion(claims)
    }

    /// A transport without a shared store has no lapsed nodes' claims to report.
    public func setLapseHandler(_ handler: @escaping @Sendable ([ClusterClaim]) -> Void) {}

    /// A transport without a shared store keeps no claims.
    public func releaseEarlierClaims(node: String) {}
}
