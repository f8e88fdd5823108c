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
}
