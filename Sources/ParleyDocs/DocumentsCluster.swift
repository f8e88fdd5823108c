import ParleyChannels

/// Makes the documents services of several nodes serve as one: the bridge between each
/// app's ``DocumentsService`` and the cluster bus of a ``ClusterChannelHub``.
///
/// Every update a node accepted and stored is sent once on ``DocumentClusterNotice/updateTopic``
/// and every awareness change of its own participants on
/// ``DocumentClusterNotice/awarenessTopic``; the other nodes apply them to their replicas of
/// the document, when they hold it open, and pass them to their own y-websocket peers.
/// Notices go to every node whether or not it holds the document open (a node that does not
/// drops them at once): which nodes hold which documents is not tracked.
public final class DocumentsCluster: DocumentRelay {
    private let hub: ClusterChannelHub
    private let services: [String: DocumentsService]

    /// Creates the bridge for `services` (by app id) over `hub`'s bus; call ``start()``.
    public init(hub: ClusterChannelHub, services: [String: DocumentsService]) {
        self.hub = hub
        self.services = services
    }

    /// Receives the other nodes' notices and makes the services send theirs.
    public func start() {
        for topic in [DocumentClusterNotice.updateTopic, DocumentClusterNotice.awarenessTopic] {
            hub.setNoticeHandler(topic: topic) { [weak self] payload in self?.receive(payload) }
        }
        for service in services.values { service.joinCluster(self) }
    }

    public func relay(_ notice: DocumentClusterNotice) {
        hub.announce(topic: notice.topic, payload: notice.encoded)
    }

    /// One notice from another node, on the bus's thread, in the order its sender sent them.
    private func receive(_ payload: [UInt8]) {
        guard let notice = DocumentClusterNotice(decoding: payload), let service = services[notice.app] else { return }
        service.receiveFromCluster(notice)
    }
}
