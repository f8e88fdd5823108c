import CLinux
import Glibc
import Synchronization

/// A process signal that asks the server to shut down.
public enum ShutdownSignal: Int32, Sendable, CaseIterable {
    /// SIGINT (Ctrl-C).
    case interrupt = 2
    /// SIGTERM (service managers, `kill`).
    case terminate = 15
    /// SIGHUP: not a shutdown, by convention a request to reload (the server reloads its TLS
    /// certificate). Watched only when passed to ``ShutdownSignals/install(on:signals:handler:)``.
    case hangup = 1
}

/// Delivers SIGINT/SIGTERM (and SIGHUP when asked) to a closure on an event loop.
///
/// The signal handler itself (in CLinux) only writes the signal number into a non-blocking
/// self-pipe, which works whichever thread the kernel picks; the loop reads the pipe and
/// runs `handler` there, where it may do anything. One watcher per process.
public final class ShutdownSignals: IOSourceHandler, @unchecked Sendable {
    // @unchecked: after `install`, all state is used only on `loop`.
    private let loop: EventLoop
    private let readFD: Int32
    private let writeFD: Int32
    private let handler: @Sendable (ShutdownSignal) -> Void
    private var token: UInt64 = 0
    private static let installed = Atomic<Bool>(false)

    private init(loop: EventLoop, readFD: Int32, writeFD: Int32, handler: @escaping @Sendable (ShutdownSignal) -> Void) {
        self.loop = loop
        self.readFD = readFD
        self.writeFD = writeFD
        self.handler = handler
    }

    /// Installs handlers for `signals` that call `handler` on `loop`. Any thread; once per process.
    @discardableResult
    public static func install(on loop: EventLoop, signals: [ShutdownSignal] = [.interrupt, .terminate],
                               handler: @escaping @Sendable (ShutdownSignal) -> Void) throws(NetError) -> ShutdownSignals {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else {
            throw NetError(.invalidArgument, "shutdown signals are already installed")
        }
        var fds: [Int32] = [-1, -1]
        guard clinux_pipe2_nonblocking(&fds) == 0 else { throw NetError.fromErrno(errno, "pipe2") }
        let watcher = ShutdownSignals(loop: loop, readFD: fds[0], writeFD: fds[1], handler: handler)
        for signal in signals {
            guard clinux_install_signal_pipe(fds[1], signal.rawValue) == 0 else {
                throw NetError.fromErrno(errno, "sigaction")
            }
        }
        loop.execute {
            do {
                watcher.token = try loop.register(.other(watcher), fd: watcher.readFD, interest: .read)
            } catch {
                loop.logger.log(.error, "signal watcher registration failed: \(error)")
            }
        }
        return watcher
    }

    func handle(_ event: SelectorEvent) {
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(readFD, &buffer, buffer.count)
        guard n > 0 else { return }
        for byte in buffer.prefix(n) {
            if let signal = ShutdownSignal(rawValue: Int32(byte)) { handler(signal) }
        }
    }

    func loopWillStop() {
        loop.deregister(fd: readFD, token: token)
        // The write end stays open: a late signal must not hit a closed (or reused) fd.
        _ = Glibc.close(readFD)
    }
}
