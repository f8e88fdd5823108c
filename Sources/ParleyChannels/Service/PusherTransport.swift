/// The WebSocket under a `PusherSession`: text out, close, and how much is still queued.
/// Called only on the connection's loop.
public protocol PusherTransport: AnyObject {
    /// Queues a text frame.
    func sendText(_ frame: [UInt8])
    /// Sends a close frame with the code and closes.
    func close(code: Int, reason: String)
    /// Bytes queued but not yet written to the socket.
    var queuedBytes: Int { get }
    /// Drops frames queued but not yet started, so a closing error reaches a slow client first.
    func discardQueued()
}

extension PusherTransport {
    /// Transports without a queue of their own have nothing to drop.
    public func discardQueued() {}
}
