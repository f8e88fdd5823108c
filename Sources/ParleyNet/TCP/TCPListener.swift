import CLinux
import Glibc

/// A listening socket registered on one loop, accepting without blocking.
///
/// Out of file descriptors (EMFILE/ENFILE), a level-triggered listener would spin on the
/// pending connection. Instead it gives up a reserved spare descriptor, accepts the pending
/// connection and closes it at once (the client sees a clean close rather than a hang),
/// and takes the spare back; if even that fails it stops listening for 100 ms. Either way it
/// logs once per episode. Loop thread only, apart from creation.
final class TCPListener: IOSourceHandler, @unchecked Sendable {
    // @unchecked: after init, used only on `loop` (TCPServer hands it there via execute).
    let fd: Int32
    let loop: EventLoop
    private let onAccept: (Int32) -> Void
    private var token: UInt64 = 0
    private var spareFD: Int32
    private var exhausted = false
    private var shedCount = 0
    private var paused = false
    private var closed = false
    private var resumeTimer: TimerHandle?

    /// Most connections accepted per readiness report, so one busy listener cannot hold the
    /// loop (level-triggered: the rest are reported again).
    private static let acceptBatch = 128

    /// Binds and listens; the socket is registered later, on `loop`, by ``activate()``.
    init(address: SocketAddress, backlog: Int32, reusePort: Bool, loop: EventLoop,
         onAccept: @escaping (Int32) -> Void) throws(NetError) {
        let fd = try SocketAddress.openSocket(family: address.family)
        _ = clinux_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if reusePort { _ = clinux_set_int_option(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = errno
            _ = Glibc.close(fd)
            throw NetError.fromErrno(error, "bind \(address)")
        }
        guard listen(fd, backlog) == 0 else {
            let error = errno
            _ = Glibc.close(fd)
            throw NetError.fromErrno(error, "listen \(address)")
        }
        self.fd = fd
        self.loop = loop
        self.onAccept = onAccept
        self.spareFD = Self.openSpare()
    }

    /// Fails with ``NetError/Code/addressInUse`` when anything listens on `address` already.
    ///
    /// Binds a throw-away socket without SO_REUSEPORT: the kernel refuses it if any socket
    /// is listening there, including another process's SO_REUSEPORT group that this
    /// process's listeners would otherwise silently join (and split the traffic with).
    /// SO_REUSEADDR keeps connections in TIME_WAIT from a previous run out of the way.
    static func ensureUnused(_ address: SocketAddress) throws(NetError) {
        let fd = try SocketAddress.openSocket(family: address.family)
        defer { _ = Glibc.close(fd) }
        _ = clinux_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        guard address.withSockAddr({ bind(fd, $0, $1) }) == 0 else {
            throw NetError.fromErrno(errno, "bind \(address)")
        }
    }

    private static func openSpare() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }

    /// The bound address (useful after binding port 0).
    var localAddress: SocketAddress? { SocketAddress.local(of: fd) }

    func activate() throws(NetError) {
        token = try loop.register(.other(self), fd: fd, interest: .read)
    }

    func handle(_ event: SelectorEvent) {
        guard !closed, !paused else { return }
        for _ in 0..<Self.acceptBatch {
            let client = clinux_accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            if client >= 0 {
                if exhausted { recovered() }
                _ = clinux_set_int_option(client, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                onAccept(client)
                continue
            }
            let error = errno
            switch error {
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                guard shedOne(error) else { return }
            default:
                // EAGAIN (backlog empty) or a transient error: wait for the next report.
                return
            }
        }
    }

    /// Accepts and immediately closes one pending connection using the spare descriptor;
    /// false if there was nothing to shed or the listener had to pause.
    private func shedOne(_ error: Int32) -> Bool {
        if !exhausted {
            exhausted = true
            loop.logger.log(.warning, "accept on \(localAddress?.description ?? "listener"): \(String(cString: strerror(error))); closing new connections until descriptors free up")
        }
        guard spareFD >= 0 else {
            pauseBriefly()
            return false
        }
        _ = Glibc.close(spareFD)
        spareFD = -1
        let client = clinux_accept4(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
        if client >= 0 {
            _ = Glibc.close(client)
            shedCount += 1
        }
        spareFD = Self.openSpare()
        if client < 0 { return false }
        if spareFD < 0 {
            pauseBriefly()
            return false
        }
        return true
    }

    private func pauseBriefly() {
        guard !paused, !closed else { return }
        paused = true
        try? loop.reregister(fd: fd, token: token, interest: [])
        resumeTimer = loop.scheduleLocal(after: .milliseconds(100)) { [self] in
            resumeTimer = nil
            guard !closed else { return }
            paused = false
            if spareFD < 0 { spareFD = Self.openSpare() }
            try? loop.reregister(fd: fd, token: token, interest: .read)
        }
    }

    private func recovered() {
        exhausted = false
        loop.logger.log(.info, "accepting again on \(localAddress?.description ?? "listener") after closing \(shedCount) connection(s) for lack of descriptors")
        shedCount = 0
    }

    /// Stops listening and releases the descriptors. Loop thread.
    func close() {
        guard !closed else { return }
        closed = true
        resumeTimer?.cancel()
        loop.deregister(fd: fd, token: token)
        _ = Glibc.close(fd)
        if spareFD >= 0 { _ = Glibc.close(spareFD) }
        spareFD = -1
    }

    func loopWillStop() { close() }
}
