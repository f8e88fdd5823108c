/// Delivers document broadcasts to the other participants: the server implements it by
/// triggering ``DocumentBroadcast/pusherEvent`` on ``DocumentBroadcast/pusherChannel``
/// (excluding the origin's socket) and by sending the message to the document's other
/// y-websocket sessions.
///
/// Called on the document's serial path, in the order changes were accepted; it must not
/// block (hand the bytes to the event loops and return).
public protocol DocumentPublisher: Sendable {
    /// Delivers `broadcast` to every participant of its document except its origin.
    func publish(_ broadcast: DocumentBroadcast)
    /// Delivers a change another node accepted (it has no origin here) to this node's peers.
    func deliverFromOtherNode(_ broadcast: DocumentBroadcast)
}

extension DocumentPublisher {
    /// Delivers a change another node accepted to this node's own peers only; the other
    /// node's hub already carried it to realtime subscribers everywhere. By default the same
    /// as ``publish(_:)``.
    public func deliverFromOtherNode(_ broadcast: DocumentBroadcast) {
        publish(broadcast)
    }
}
