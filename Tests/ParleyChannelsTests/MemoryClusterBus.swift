import ParleyWire

@testable import ParleyChannels

/// An in-memory bus for cluster tests: broadcasts queue in one global order, `deliver()`
/// hands them to every node's handler; stored shares lapse by the test clock.
final class MemoryClusterBus: @unchecked Sendable {
    // @unchecked: tests drive everything from one thread.
    let clock: TestClock
    var handlers: [String: @Sendable ([UInt8]) -> Void] = [:]
    var queue: [[UInt8]] = []
    var shares: [String: (bytes: [UInt8], expires: Int64)] = [:]
    var caches: [String: [UInt8]] = [:]
    var broadcasts = 0
    /// While true, broadcasts are lost (Redis unreachable).
    var down = false
    /// Which nodes are in each claim's subject (as Redis's `parley:where:*` sets).
    var whereabouts: [[UInt8]: Set<String>] = [:]
    var lapseHandlers: [String: @Sendable ([ClusterClaim]) -> Void] = [:]

    init(clock: TestClock) { self.clock = clock }

    func transport(_ node: String) -> Transport { Transport(bus: self, node: node) }

    /// Delivers every queued message to every node, in order (until none is left).
    func deliver() {
        while !queue.isEmpty {
            let message = queue.removeFirst()
            for node in handlers.keys.sorted() { handlers[node]?(message) }
        }
    }

    final class Transport: ClusterTransport, @unchecked Sendable {
        // @unchecked: tests drive everything from one thread.
        let bus: MemoryClusterBus
        let node: String
        var storing = true
        /// While true, this node's claims wait in `heldClaims` (a slow link to the store)
        /// until `releaseClaims`.
        var holdingClaims = false
        var heldClaims: [(claims: [ClusterClaim], completion: @Sendable ([ClusterClaim]) -> Void)] = []

        init(bus: MemoryClusterBus, node: String) {
            self.bus = bus
            self.node = node
        }

        func start(handler: @escaping @Sendable ([UInt8]) -> Void) { bus.handlers[node] = handler }

        func broadcast(_ payload: [UInt8]) {
            guard !bus.down else { return }
            bus.broadcasts += 1
            bus.queue.append(payload)
        }

        func storeShare(node: String, _ snapshot: [UInt8], ttlMilliseconds: Int64) {
            guard storing, !bus.down else { return }
            bus.shares[node] = (snapshot, bus.clock.now + ttlMilliseconds)
        }

        func loadShares(_ completion: @escaping @Sendable ([String: [UInt8]]?) -> Void) {
            guard !bus.down else { return completion(nil) }
            let now = bus.clock.now
            for (lapsed, _) in bus.shares where bus.shares[lapsed]!.expires <= now {
                bus.shares[lapsed] = nil
                bus.lapseHandlers[node]?(release(lapsed))
            }
            completion(bus.shares.filter { $0.value.expires > now }.mapValues(\.bytes))
        }

        func storeCache(key: String, _ value: [UInt8], ttlMilliseconds: Int64) {
            guard !bus.down else { return }
            bus.caches[key] = value
        }

        func loadCaches(_ completion: @escaping @Sendable ([[UInt8]]) -> Void) {
            completion(bus.down ? [] : bus.caches.keys.sorted().map { bus.caches[$0]! })
        }

        func claim(node: String, _ claims: [ClusterClaim], completion: @escaping @Sendable ([ClusterClaim]) -> Void) {
            guard !bus.down else { return completion([]) }
            guard !holdingClaims else { return heldClaims.append((claims, completion)) }
            completion(decide(claims))
        }

        /// Lets the held claims reach the store, in the order they were sent.
        func releaseClaims() {
            let held = heldClaims
            heldClaims = []
            for (claims, completion) in held { completion(decide(claims)) }
        }

        /// The claim script's rule: the first node in and the last node out change the cluster.
        func decide(_ claims: [ClusterClaim]) -> [ClusterClaim] {
            claims.filter { claim in
                if claim.joined {
                    return bus.whereabouts[claim.subject, default: []].insert(node).inserted
                        && bus.whereabouts[claim.subject]!.count == 1
                }
                guard bus.whereabouts[claim.subject]?.remove(node) != nil else { return false }
                return bus.whereabouts[claim.subject]!.isEmpty
            }
        }

        func setLapseHandler(_ handler: @escaping @Sendable ([ClusterClaim]) -> Void) { bus.lapseHandlers[node] = handler }

        /// The release script's rule: a dead node leaves every subject; the emptied ones are reported.
        func release(_ dead: String) -> [ClusterClaim] {
            var emptied: [ClusterClaim] = []
            for subject in bus.whereabouts.keys.sorted(by: { $0.lexicographicallyPrecedes($1) })
            where bus.whereabouts[subject]!.remove(dead) != nil && bus.whereabouts[subject]!.isEmpty {
                emptied += ClusterClaim(subject: subject, joined: false).map { [$0] } ?? []
            }
            return emptied
        }

        func stop() { bus.handlers[node] = nil }
    }
}
