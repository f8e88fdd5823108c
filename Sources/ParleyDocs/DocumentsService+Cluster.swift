/// Serving documents together with other nodes (see ``DocumentsCluster``).
extension DocumentsService {
    /// Sends this service's accepted updates and awareness changes through `relay` from now on.
    public func joinCluster(_ relay: any DocumentRelay) {
        self.relay.join(relay)
    }

    /// Applies another node's notice to the document if this node holds it open; a document
    /// opened later reads the update from the store instead. A document still loading keeps
    /// the notice and applies it once loaded, so nothing published during the load is missed.
    public func receiveFromCluster(_ notice: DocumentClusterNotice) {
        existing(notice.documentID)?.enqueueFromCluster(notice)
    }
}
