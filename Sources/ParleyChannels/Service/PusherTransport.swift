/// The WebSocket under a `PusherSession`: text out, close, and how much is still queued.
/// Called only on the connection's loop.
public protocol PusherTransport: AnyObject {
    /// Queues a text frame.
    func sendText(_ frame: [UInt8])
    /// Sends a close frame with the code and closes.
    func close(code: Int, reason: String)
    /// Bytes queued but not yet written to the socket.
    var queuedBytes: Int { get }
    /// Queues an event encoded once for all its subscribers.
    func send(_ frame: ChannelFrame)
    /// Drops frames queued but not yet started, so a closing error reaches a slow client first.
    func discardQueued()
}

extension PusherTransport {
    /// Transports without a queue of their own have nothing to drop.
    public func discardQueued() {}

    /// Transports that can't queue a shared frame send the JSON as text.
    public func send(_ frame: ChannelFrame) { sendText(frame.json) }
}
