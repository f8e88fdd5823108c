import CLinux
import Glibc
import ParleySystem

/// A listening socket registered on one loop, accepting without blocking.
///
/// Out of file descriptors (EMFILE/ENFILE), a level-triggered listener would spin on the
/// pending connection. Instead it gives up a reserved spare descriptor, accepts the pending
/// connection and closes it at once (the client sees a clean close rather than a hang),
/// and takes the spare back; if even that fails it stops listening for 100 ms. Either way it
/// logs once per episode. Loop thread only, apart from creation.
final class TCPListener: IOSourceHandler, @unchecked Sendable {
    // @unchecked: after init, used only on `loop` (TCPServer hands it there via execute).
    /// The listening socket; nil once closed.
    private var socket: FileDescriptor?
    let loop: EventLoop
    private let onAccept: (consuming FileDescriptor) -> Void
    private var token: UInt64 = 0
    /// Held open to be given up when descriptors run out; nil while given up.
    private var spare: FileDescriptor?
    private var exhausted = false
    private var shedCount = 0
    private var paused = false
    private var closed = false
    private var resumeTimer: TimerHandle?

    /// Most connections accepted per readiness report, so one busy listener cannot hold the
    /// loop (level-triggered: the rest are reported again).
    private static let acceptBatch = 128

    /// Binds and listens; the socket is registered later, on `loop`, by ``activate()``.
    init(
        address: SocketAddress, backlog: Int32, reusePort: Bool, loop: EventLoop,
        onAccept: @escaping (consuming FileDescriptor) -> Void
    ) throws(NetError) {
        let socket = try SocketAddress.openSocket(family: address.family)
        do throws(SystemCallError) {
            try socket.withRawValue { fd throws(SystemCallError) in
                _ = clinux_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1)
                if reusePort { _ = clinux_set_int_option(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
                _ = try SystemCall.retrying("bind") { address.withSockAddr { bind(fd, $0, $1) } }
                _ = try SystemCall.retrying("listen") { listen(fd, backlog) }
            }
        } catch {
            try? socket.close()
            throw NetError(error, "\(error.call) \(address)")
        }
        self.socket = consume socket
        self.loop = loop
        self.onAccept = onAccept
        self.spare = Self.openSpare()
    }

    /// Fails with ``NetError/Code/addressInUse`` when anything listens on `address` already.
    ///
    /// Binds a throw-away socket without SO_REUSEPORT: the kernel refuses it if any socket
    /// is listening there, including another process's SO_REUSEPORT group that this
    /// process's listeners would otherwise silently join (and split the traffic with).
    /// SO_REUSEADDR keeps connections in TIME_WAIT from a previous run out of the way.
    static func ensureUnused(_ address: SocketAddress) throws(NetError) {
        let socket = try SocketAddress.openSocket(family: address.family)
        let bound = socket.withRawValue { fd in
            _ = clinux_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            return Result { () throws(SystemCallError) in try SystemCall.retrying("bind") { address.withSockAddr { bind(fd, $0, $1) } } }
        }
        try? socket.close()
        if case .failure(let error) = bound { throw NetError(error, "bind \(address)") }
    }

    private static func openSpare() -> FileDescriptor? { try? FileDescriptor.open("/dev/null", O_RDONLY | O_CLOEXEC) }

    /// The bound address (useful after binding port 0).
    var localAddress: SocketAddress? { socket?.localAddress }

    func activate() throws(NetError) {
        loop.assertInEventLoop("TCPListener.activate")
        try socket?.withRawValue { fd throws(NetError) in token = try loop.register(.other(self), fd: fd, interest: .read) }
    }

    func handle(_ event: SelectorEvent) {
        guard !closed, !paused else { return }
        for _ in 0..<Self.acceptBatch {
            switch accept(flags: Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)) {
            case .success(.processed(let client)):
                if exhausted { recovered() }
                client.withRawValue { _ = clinux_set_int_option($0, Int32(IPPROTO_TCP), TCP_NODELAY, 1) }
                onAccept(client)
            case .success(.wouldBlock):
                return  // the backlog is empty
            case .failure(let error):
                switch error.errno {
                case ECONNABORTED, EPROTO:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    guard shedOne(error.errno) else { return }
                default:
                    // A transient error: wait for the next report.
                    return
                }
            }
        }
    }

    /// One `accept4` on the listening socket (EINTR retried).
    private func accept(flags: Int32) -> Result<IOResult<FileDescriptor>, SystemCallError> {
        do throws(SystemCallError) {
            guard
                let accepted = try socket?.withRawValue({ fd throws(SystemCallError) in
                    try SystemCall.nonBlocking("accept4") { clinux_accept4(fd, nil, nil, flags) }
                })
            else { return .success(.wouldBlock) }
            switch accepted {
            case .processed(let client): return .success(.processed(FileDescriptor(unsafeAdopting: client)))
            case .wouldBlock: return .success(.wouldBlock)
            }
        } catch {
            return .failure(error)
        }
    }

    /// Accepts and immediately closes one pending connection using the spare descriptor;
    /// false if there was nothing to shed or the listener had to pause.
    private func shedOne(_ error: Int32) -> Bool {
        if !exhausted {
            exhausted = true
            loop.logger.log(
                .warning,
                "accept on \(localAddress?.description ?? "listener"): \(String(cString: strerror(error))); closing new connections until descriptors free up"
            )
        }
        guard let given = spare.take() else {
            pauseBriefly()
            return false
        }
        try? given.close()
        let shed: Bool
        switch accept(flags: Int32(SOCK_CLOEXEC.rawValue)) {
        case .success(.processed(let client)):
            try? client.close()
            shedCount += 1
            shed = true
        default:
            shed = false
        }
        spare = Self.openSpare()
        if !shed { return false }
        if spare == nil {
            pauseBriefly()
            return false
        }
        return true
    }

    private func pauseBriefly() {
        guard !paused, !closed else { return }
        paused = true
        reregister([])
        resumeTimer = loop.scheduleLocal(after: .milliseconds(100)) { [self] in
            resumeTimer = nil
            guard !closed else { return }
            paused = false
            if spare == nil { spare = Self.openSpare() }
            reregister(.read)
        }
    }

    private func reregister(_ interest: SelectorInterest) {
        socket?.withRawValue { fd in try? loop.reregister(fd: fd, token: token, interest: interest) }
    }

    private func recovered() {
        exhausted = false
        loop.logger.log(
            .info,
            "accepting again on \(localAddress?.description ?? "listener") after closing \(shedCount) connection(s) for lack of descriptors"
        )
        shedCount = 0
    }

    /// Stops listening and releases the descriptors. Loop thread.
    func close() {
        loop.assertInEventLoop("TCPListener.close")
        guard !closed else { return }
        closed = true
        resumeTimer?.cancel()
        socket?.withRawValue { loop.deregister(fd: $0, token: token) }
        releaseDescriptors()
    }

    /// Closes the descriptors of a listener that was never activated (a later one in the same
    /// server failed to bind). Any thread: nothing is registered with the loop yet.
    func discard() {
        closed = true
        releaseDescriptors()
    }

    private func releaseDescriptors() {
        try? socket.take()?.close()
        try? spare.take()?.close()
    }

    func loopWillStop() { close() }
}
