import Synchronization

/// Counters of the cluster bus for `/metrics`, and its connection state for `/healthz`.
public final class ClusterStatistics: Sendable {
    /// Bus messages sent and received (this node's own echoes are not counted as received).
    public let messagesOut = Atomic<Int>(0)
    public let messagesIn = Atomic<Int>(0)
    /// Payload bytes sent and received.
    public let bytesOut = Atomic<Int>(0)
    public let bytesIn = Atomic<Int>(0)
    /// Times a bus connection was re-established after being lost.
    public let reconnects = Atomic<Int>(0)
    /// Publishes that failed (Redis unreachable): their events reached this node only.
    public let publishFailures = Atomic<Int>(0)
    /// Messages that could not be decoded (another version, corruption).
    public let malformed = Atomic<Int>(0)

    /// Upper bounds of the publish latency buckets, in seconds.
    public static let latencyBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    private struct Latency {
        var buckets = [Int](repeating: 0, count: ClusterStatistics.latencyBounds.count)
        var count = 0
        var sum = 0.0
    }

    private let latency = Mutex(Latency())
    private let connection = Mutex<(connected: Bool, reason: String?)>((false, "not connected yet"))
    private let connectionObserver = Mutex<(@Sendable (Bool) -> Void)?>(nil)

    /// Creates zeroed counters.
    public init() {}

    /// Records one publish's round trip to Redis.
    public func recordPublish(seconds: Double) {
        latency.withLock { l in
            l.count += 1
            l.sum += seconds
            if let i = Self.latencyBounds.firstIndex(where: { seconds <= $0 }) { l.buckets[i] += 1 }
        }
    }

    /// Records the bus's connection state (`reason` says why it is down).
    public func setConnected(_ connected: Bool, reason: String?) {
        let changed = connection.withLock { state in
            defer { state = (connected, connected ? nil : reason) }
            return state.connected != connected
        }
        if changed { connectionObserver.withLock { $0 }?(connected) }
    }

    /// Calls `observer` (on the bus's thread) each time the bus connects or is lost.
    public func observeConnection(_ observer: (@Sendable (_ connected: Bool) -> Void)?) {
        connectionObserver.withLock { $0 = observer }
    }

    /// Whether the bus is connected, and why not.
    public var state: (connected: Bool, reason: String?) { connection.withLock { $0 } }

    /// Prometheus text of these counters, labelled with the node.
    public func render(node: String) -> String {
        let label = "node=\"\(PrometheusText.escape(node))\""
        var out = ""
        func counter(_ name: String, _ help: String, _ value: Int) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) counter\n\(name){\(label)} \(value)\n"
        }
        counter("parley_bus_messages_out_total", "Messages this node published on the cluster bus.", messagesOut.load(ordering: .relaxed))
        counter(
            "parley_bus_messages_in_total", "Messages from other nodes received on the cluster bus.", messagesIn.load(ordering: .relaxed))
        counter("parley_bus_bytes_out_total", "Payload bytes published on the cluster bus.", bytesOut.load(ordering: .relaxed))
        counter(
            "parley_bus_bytes_in_total", "Payload bytes received from other nodes on the cluster bus.", bytesIn.load(ordering: .relaxed))
        counter("parley_bus_reconnects_total", "Times a cluster bus connection was re-established.", reconnects.load(ordering: .relaxed))
        counter(
            "parley_bus_publish_failures_total", "Bus publishes that failed (their events reached this node only).",
            publishFailures.load(ordering: .relaxed))
        counter("parley_bus_malformed_total", "Bus messages that could not be decoded.", malformed.load(ordering: .relaxed))
        let state = self.state
        out += "# HELP parley_bus_connected Whether the cluster bus is connected.\n# TYPE parley_bus_connected gauge\n"
        out += "parley_bus_connected{\(label)} \(state.connected ? 1 : 0)\n"
        let l = latency.withLock { $0 }
        out += "# HELP parley_bus_publish_seconds Round trip of a publish to Redis.\n# TYPE parley_bus_publish_seconds histogram\n"
        var cumulative = 0
        for (bound, count) in zip(Self.latencyBounds, l.buckets) {
            cumulative += count
            out += "parley_bus_publish_seconds_bucket{\(label),le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "parley_bus_publish_seconds_bucket{\(label),le=\"+Inf\"} \(l.count)\n"
        out += "parley_bus_publish_seconds_sum{\(label)} \(l.sum)\n"
        out += "parley_bus_publish_seconds_count{\(label)} \(l.count)\n"
        return out
    }
}
