import Synchronization

/// The relay a service and its open documents share, set once the service joins a cluster;
/// without one nothing is sent (one node alone).
final class DocumentRelayLink: Sendable {
    private let relay = Mutex<(any DocumentRelay)?>(nil)

    /// Whether the service is part of a cluster.
    var isJoined: Bool { relay.withLock { $0 != nil } }

    func join(_ relay: any DocumentRelay) {
        self.relay.withLock { $0 = relay }
    }

    func send(_ notice: DocumentClusterNotice) {
        relay.withLock { $0 }?.relay(notice)
    }
}
