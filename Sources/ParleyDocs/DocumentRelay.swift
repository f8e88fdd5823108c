/// Carries a documents service's notices to the other nodes of a cluster
/// (``DocumentsCluster`` over the Redis bus; absent for one node alone).
///
/// Called on a document's serial path; it must not block.
public protocol DocumentRelay: Sendable {
    /// Sends `notice` to every other node.
    func relay(_ notice: DocumentClusterNotice)
}
