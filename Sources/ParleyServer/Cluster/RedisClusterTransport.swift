import ParleyChannels
import ParleyNet
import ParleyWire
import Synchronization

/// The cluster bus on Redis.
///
/// - `parley:bus` (pub/sub): every node's messages, one `PUBLISH` per message.
/// - `parley:share:{node}` (string, `PX` expiry): a node's share snapshot, stored every second.
/// - `parley:nodes` (set): the ids of nodes that stored a share; an id whose share has lapsed
///   is removed by whichever node notices.
/// - `parley:cache:{app}:{channel}` (string, `PX` 30 min): a cache channel's last event, which
///   a node starting later reads.
///
/// - `parley:where:{subject}` (set): the ids of the nodes with a subscription to a channel
///   (subject `app NUL channel`) or a connection of a presence member (`app NUL channel NUL
///   user`); `parley:claims:{node}` (set): the subjects a node is in, for removing a dead
///   node's. Both change only in Lua scripts (`ClusterClaimScripts`), so whether a node was
///   the first in or the last out is decided atomically, once for the cluster.
///
/// Several clusters may share one Redis server on different databases (`redis://…/N`).
final class RedisClusterTransport: ClusterTransport {
    static let busChannel = "parley:bus"
    static let nodesKey = "parley:nodes"
    static func shareKey(_ node: String) -> String { "parley:share:\(node)" }
    static let cachePrefix = "parley:cache:"

    private let client: RedisClient
    private let statistics: ClusterStatistics
    private let logger: Logger
    private let lapseHandler = Mutex<(@Sendable ([ClusterClaim]) -> Void)?>(nil)

    init(url: RedisURL, loop: EventLoop, statistics: ClusterStatistics, logger: Logger) {
        // Retries at most a second apart: chat catch-up and shared state start when the bus is back.
        var configuration = RedisConnectionConfiguration(url: url)
        configuration.reconnectMaxDelay = 1_000
        self.client = RedisClient(configuration: configuration, on: loop)
        self.statistics = statistics
        self.logger = logger
    }

    func start(handler: @escaping @Sendable ([UInt8]) -> Void) {
        let link = LinkState(statistics: statistics, logger: logger)
        client.observeConnections { subscriber, ready, error in link.update(subscriber: subscriber, ready: ready, error: error) }
        let client = self.client, logger = self.logger
        Task {
            do {
                try await client.subscribe(channels: [Self.busChannel]) { message in handler(message.payload) }
            } catch {
                // The subscription is renewed when the connection comes back.
                logger.warning("cluster bus subscription pending", [("error", "\(error)")])
            }
        }
    }

    func broadcast(_ payload: [UInt8]) {
        let started = ServerClock.monotonicMilliseconds()
        let statistics = self.statistics
        client.send(RESPCommand([Array("PUBLISH".utf8), Array(Self.busChannel.utf8), payload])) { result in
            switch result {
            case .success: statistics.recordPublish(seconds: Double(ServerClock.monotonicMilliseconds() - started) / 1000)
            case .failure: statistics.publishFailures.add(1, ordering: .relaxed)
            }
        }
    }

    func storeShare(node: String, _ snapshot: [UInt8], ttlMilliseconds: Int64) {
        client.send(
            RESPCommand([
                Array("SET".utf8), Array(Self.shareKey(node).utf8), snapshot, Array("PX".utf8),
                Array(String(ttlMilliseconds).utf8)
            ])
        ) { _ in }
        client.send(RESPCommand("SADD", Self.nodesKey, node)) { _ in }
    }

    func loadShares(_ completion: @escaping @Sendable ([String: [UInt8]]?) -> Void) {
        let client = self.client
        client.send(RESPCommand("SMEMBERS", Self.nodesKey)) { [self] result in
            guard case .success(let reply) = result, let members = reply.elements else { return completion(nil) }
            let nodes = members.compactMap { $0.bytes.map { String(decoding: $0, as: UTF8.self) } }
            guard !nodes.isEmpty else { return completion([:]) }
            client.send(RESPCommand([Array("MGET".utf8)] + nodes.map { Array(Self.shareKey($0).utf8) })) { result in
                guard case .success(let reply) = result, let values = reply.elements, values.count == nodes.count else {
                    return completion(nil)
                }
                var shares: [String: [UInt8]] = [:]
                var lapsed: [String] = []
                for (node, value) in zip(nodes, values) {
                    if let bytes = value.bytes { shares[node] = bytes } else { lapsed.append(node) }
                }
                for node in lapsed { self.release(lapsed: node) }
                completion(shares)
            }
        }
    }

    func claim(node: String, _ claims: [ClusterClaim], completion: @escaping @Sendable ([ClusterClaim]) -> Void) {
        guard !claims.isEmpty else { return }
        client.send(ClusterClaimScripts.claim(node: node, claims)) { result in
            guard case .success(let reply) = result, let fired = reply.elements else { return completion([]) }
            completion(
                fired.compactMap { value in
                    guard case .integer(let index) = value, index >= 1, index <= claims.count else { return nil }
                    return claims[Int(index) - 1]
                })
        }
    }

    func setLapseHandler(_ handler: @escaping @Sendable ([ClusterClaim]) -> Void) {
        lapseHandler.withLock { $0 = handler }
    }

    /// Removes a lapsed node from `parley:nodes` and from every subject it was in; the
    /// departures that emptied a subject are this node's to report (another node sweeping at
    /// the same time finds them already gone).
    private func release(lapsed node: String) { release(node: node, earlier: false) }

    func releaseEarlierClaims(node: String) { release(node: node, earlier: true) }

    private func release(node: String, earlier: Bool) {
        let handler = lapseHandler.withLock { $0 }
        client.send(ClusterClaimScripts.release(node: node, earlier: earlier)) { result in
            guard case .success(let reply) = result, let left = reply.elements else { return }
            let claims = left.compactMap { $0.bytes.flatMap { ClusterClaim(subject: $0, joined: false) } }
            if !claims.isEmpty { handler?(claims) }
        }
    }

    func storeCache(key: String, _ value: [UInt8], ttlMilliseconds: Int64) {
        client.send(
            RESPCommand([
                Array("SET".utf8), Array((Self.cachePrefix + key).utf8), value, Array("PX".utf8),
                Array(String(ttlMilliseconds).utf8)
            ])
        ) { _ in }
    }

    func loadCaches(_ completion: @escaping @Sendable ([[UInt8]]) -> Void) {
        scanCaches(cursor: "0", found: [], completion)
    }

    /// `SCAN` through `parley:cache:*`, then `MGET` each page's keys.
    private func scanCaches(cursor: String, found: [[UInt8]], _ completion: @escaping @Sendable ([[UInt8]]) -> Void) {
        let client = self.client
        client.send(RESPCommand("SCAN", cursor, "MATCH", Self.cachePrefix + "*", "COUNT", "1000")) { [self] result in
            guard case .success(let reply) = result, let parts = reply.elements, parts.count == 2,
                let next = parts[0].bytes.map({ String(decoding: $0, as: UTF8.self) }), let keys = parts[1].elements?.compactMap(\.bytes)
            else { return completion(found) }
            let proceed: @Sendable ([[UInt8]]) -> Void = { values in
                next == "0" ? completion(found + values) : self.scanCaches(cursor: next, found: found + values, completion)
            }
            guard !keys.isEmpty else { return proceed([]) }
            client.send(RESPCommand([Array("MGET".utf8)] + keys)) { result in
                guard case .success(let reply) = result, let values = reply.elements else { return proceed([]) }
                proceed(values.compactMap(\.bytes))
            }
        }
    }

    func stop() { client.close() }
}

/// The two Redis connections' state, folded into the bus's: connected when both are ready.
private final class LinkState: Sendable {
    private struct Links {
        var commands = false
        var subscriber = false
        var everConnected = false
        var wasConnected = false
    }

    private let links = Mutex(Links())
    private let statistics: ClusterStatistics
    private let logger: Logger

    init(statistics: ClusterStatistics, logger: Logger) {
        self.statistics = statistics
        self.logger = logger
    }

    func update(subscriber: Bool, ready: Bool, error: RedisError?) {
        let (connected, reconnected, lost) = links.withLock { l in
            if subscriber { l.subscriber = ready } else { l.commands = ready }
            let connected = l.commands && l.subscriber
            let reconnected = connected && !l.wasConnected && l.everConnected
            let lost = !connected && l.wasConnected
            if connected { l.everConnected = true }
            l.wasConnected = connected
            return (connected, reconnected, lost)
        }
        let reason = error.map { "\(subscriber ? "subscriber" : "command") connection: \($0.message)" } ?? "connecting to Redis"
        statistics.setConnected(connected, reason: reason)
        if reconnected {
            statistics.reconnects.add(1, ordering: .relaxed)
            logger.info("cluster bus reconnected")
        } else if lost {
            logger.warning("cluster bus lost", [("reason", reason)])
        }
        // The first connection is not logged: the start-up line (`bus=`) is the first line
        // scripts wait for, and /healthz tells whether the bus is up.
    }
}
