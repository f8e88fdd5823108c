import Glibc
import ParleySystem
import Synchronization

/// A TCP server on an ``EventLoopGroup``: listeners plus the hand-off of accepted sockets to
/// loops.
///
/// With ``Distribution/reusePort`` (the default) every loop has its own listening socket on
/// the same port (SO_REUSEPORT) and the kernel spreads connections across them: accepting
/// costs no cross-thread hand-off and no lock, and a loop only ever accepts what it will
/// own. On two cores that beats one acceptor that must pass every fd to the other loop
/// through its task queue and wake it. ``Distribution/singleAcceptor`` exists for
/// platforms without SO_REUSEPORT balancing and for strict round-robin.
public final class TCPServer: Sendable {
    /// How accepted connections are spread over the loops.
    public enum Distribution: Sendable {
        /// One listener per loop on a shared port; the kernel balances.
        case reusePort
        /// One listener on the first loop, handing sockets round robin to all loops.
        case singleAcceptor
    }

    /// The address the server is bound to (with the real port if 0 was asked for).
    public let localAddress: SocketAddress
    private let listeners: [TCPListener]

    private init(localAddress: SocketAddress, listeners: [TCPListener]) {
        self.localAddress = localAddress
        self.listeners = listeners
    }

    /// Binds `host:port` (numeric host; port 0 picks a free one) and starts accepting.
    /// `onAccept` runs on the new connection's loop with the registered connection; set its
    /// handler there. Any thread.
    ///
    /// The port must be free: with ``Distribution/reusePort`` a listener already there
    /// (another server's SO_REUSEPORT group) fails the start with
    /// ``NetError/Code/addressInUse`` rather than being joined. `joinOtherProcesses` skips that
    /// check so a new server can take over a port from an old one without a gap (both
    /// accept until the old one stops listening).
    public static func start(
        group: EventLoopGroup, host: String, port: Int, backlog: Int = 1024,
        distribution: Distribution = .reusePort, joinOtherProcesses: Bool = false,
        onAccept: @escaping @Sendable (Connection) -> Void
    ) throws(NetError) -> TCPServer {
        guard var address = SocketAddress(host: host, port: port) else {
            throw NetError(.invalidArgument, "not a numeric address: \(host):\(port)")
        }
        if distribution == .reusePort, !joinOtherProcesses, port != 0 {
            try TCPListener.ensureUnused(address)
        }
        let acceptingLoops = distribution == .reusePort ? group.loops : [group.loops[0]]
        var listeners: [TCPListener] = []
        do throws(NetError) {
            for loop in acceptingLoops {
                let handOff: (consuming FileDescriptor) -> Void
                if distribution == .reusePort {
                    handOff = { socket in adopt(socket, on: loop, onAccept) }
                } else {
                    handOff = { socket in
                        let target = group.next()
                        if target === loop {
                            adopt(socket, on: loop, onAccept)
                        } else {
                            let parcel = DescriptorParcel(socket)
                            target.execute { if let socket = parcel.take() { adopt(socket, on: target, onAccept) } }
                        }
                    }
                }
                let listener = try TCPListener(
                    address: address, backlog: Int32(backlog),
                    reusePort: distribution == .reusePort, loop: loop, onAccept: handOff)
                listeners.append(listener)
                if port == 0, let bound = listener.localAddress { address = bound }
            }
        } catch {
            for listener in listeners { listener.discard() }
            throw error
        }
        let server = TCPServer(localAddress: listeners[0].localAddress ?? address, listeners: listeners)
        for listener in listeners {
            listener.loop.execute {
                do {
                    try listener.activate()
                } catch {
                    listener.loop.logger.log(.error, "listener registration failed: \(error)")
                }
            }
        }
        return server
    }

    /// Stops accepting (open connections are unaffected). Any thread; takes effect on each
    /// listener's loop shortly after.
    public func stop() {
        for listener in listeners {
            listener.loop.execute { listener.close() }
        }
    }

    private static func adopt(_ socket: consuming FileDescriptor, on loop: EventLoop, _ onAccept: (Connection) -> Void) {
        let connection = Connection(socket: socket, loop: loop, connecting: false)
        do {
            try connection.activate()
        } catch {
            connection.discard()
            loop.logger.log(.warning, "could not register accepted socket: \(error)")
            return
        }
        onAccept(connection)
    }
}
