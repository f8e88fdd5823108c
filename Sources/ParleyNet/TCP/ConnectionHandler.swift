/// The protocol layer driving a ``Connection`` (HTTP, WebSocket, a test echo...).
///
/// Every callback runs on the connection's loop thread. Defaults: EOF closes gracefully,
/// an outbound overflow or idle timeout aborts the connection, the rest do nothing.
public protocol ConnectionHandler: AnyObject {
    /// Bytes arrived. `bytes` points into the loop's shared read buffer and is valid only
    /// during the call: copy what must outlive it.
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer)
    /// The peer shut down its sending side (read returned 0). Reading has stopped.
    func connectionDidReachEOF(_ connection: Connection)
    /// A queue that had filled the socket buffer has been written out completely.
    func connectionDidDrain(_ connection: Connection)
    /// A write would have taken the outbound queue past ``Connection/maxOutboundBytes``; the
    /// write was dropped. Decide: close (with a protocol-level reason), or discard queued output.
    func connectionDidExceedOutboundLimit(_ connection: Connection)
    /// No bytes moved in either direction for ``Connection/idleTimeout``.
    func connectionDidTimeOut(_ connection: Connection)
    /// The socket is closed; `error` is nil after an orderly close. Called exactly once, last.
    func connection(_ connection: Connection, didCloseWith error: NetError?)
}

extension ConnectionHandler {
    public func connectionDidReachEOF(_ connection: Connection) { connection.close() }
    public func connectionDidDrain(_ connection: Connection) {}
    public func connectionDidExceedOutboundLimit(_ connection: Connection) {
        connection.abort(NetError(.outboundOverflow, "outbound queue over \(connection.maxOutboundBytes) bytes"))
    }
    public func connectionDidTimeOut(_ connection: Connection) {
        connection.abort(NetError(.timedOut, "idle for \(connection.idleTimeout.map { "\($0)" } ?? "?")"))
    }
    public func connection(_ connection: Connection, didCloseWith error: NetError?) {}
}
