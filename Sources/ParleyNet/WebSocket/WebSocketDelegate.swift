import ParleyWire

/// Receives a ``WebSocket``'s events on its loop: one object instead of four callback closures.
///
/// The socket holds its delegate strongly until it reports the close and drops it then (so
/// a delegate that holds the socket forms a cycle only while the connection is open). A
/// socket with a delegate calls it instead of its `on…` closures. Thousands of idle
/// connections each saved the closures' contexts and a weak-reference side table.
public protocol WebSocketDelegate: AnyObject {
    /// A complete message arrived.
    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage)
    /// A ping arrived (already answered).
    func webSocket(_ socket: WebSocket, didReceivePing payload: [UInt8])
    /// A pong arrived.
    func webSocket(_ socket: WebSocket, didReceivePong payload: [UInt8])
    /// The connection is over (see ``WebSocket/onClose``); the last call the delegate gets.
    func webSocket(_ socket: WebSocket, didCloseWith code: WebSocketCloseCode, reason: String)
}

extension WebSocketDelegate {
    public func webSocket(_ socket: WebSocket, didReceivePing payload: [UInt8]) {}
    public func webSocket(_ socket: WebSocket, didReceivePong payload: [UInt8]) {}
}
