import ParleySystem

extension FileDescriptor {
    /// The address this socket is bound to, if it still knows it.
    var localAddress: SocketAddress? { SocketAddress.local(of: self) }
    /// The peer's address, if this socket is connected and still knows it.
    var peerAddress: SocketAddress? { SocketAddress.peer(of: self) }
}
