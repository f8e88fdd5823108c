import CLinux
import CSignalPipe
import Glibc
import ParleySystem
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
/// The signal handler itself (in CSignalPipe) only writes the signal number into a non-blocking
/// self-pipe, which works whichever thread the kernel picks; the loop reads the pipe and
/// runs `handler` there, where it may do anything. One watcher per process.
public final class ShutdownSignals: IOSourceHandler, @unchecked Sendable {
    // @unchecked: after `install`, all state is used only on `loop`.
    private let loop: EventLoop
    /// The pipe's read end; nil once the loop stopped. The write end belongs to the signal
    /// handler for the rest of the process: a late signal must not hit a closed (or reused) fd.
    private var reader: FileDescriptor?
    private let handler: @Sendable (ShutdownSignal) -> Void
    private var token: UInt64 = 0
    private static let installed = Atomic<Bool>(false)

    private init(loop: EventLoop, reader: consuming FileDescriptor, handler: @escaping @Sendable (ShutdownSignal) -> Void) {
        self.loop = loop
        self.reader = consume reader
        self.handler = handler
    }

    /// Installs handlers for `signals` that call `handler` on `loop`. Any thread; once per process.
    @discardableResult
    public static func install(
        on loop: EventLoop, signals: [ShutdownSignal] = [.interrupt, .terminate],
        handler: @escaping @Sendable (ShutdownSignal) -> Void
    ) throws(NetError) -> ShutdownSignals {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else {
            throw NetError(.invalidArgument, "shutdown signals are already installed")
        }
        var fds: [Int32] = [-1, -1]
        guard clinux_pipe2_nonblocking(&fds) == 0 else { throw NetError.fromErrno(errno, "pipe2") }
        let watcher = ShutdownSignals(loop: loop, reader: FileDescriptor(unsafeAdopting: fds[0]), handler: handler)
        let writeEnd = FileDescriptor(unsafeAdopting: fds[1]).releaseOwnership()
        for signal in signals {
            guard parley_signal_pipe_route(writeEnd, signal.rawValue) == 0 else {
                throw NetError.fromErrno(errno, "sigaction")
            }
        }
        loop.execute {
            do {
                try watcher.reader?.withRawValue { fd throws(NetError) in
                    watcher.token = try loop.register(.other(watcher), fd: fd, interest: .read)
                }
            } catch {
                loop.logger.log(.error, "signal watcher registration failed: \(error)")
            }
        }
        return watcher
    }

    func handle(_ event: SelectorEvent) {
        var buffer = [UInt8](repeating: 0, count: 16)
        let result = buffer.withUnsafeMutableBytes { bytes in try? reader?.readNonBlocking(into: bytes) }
        guard case .processed(let n)? = result, n > 0 else { return }
        for byte in buffer.prefix(n) {
            if let signal = ShutdownSignal(rawValue: Int32(byte)) { handler(signal) }
        }
    }

    func loopWillStop() {
        guard let reader = reader.take() else { return }
        reader.withRawValue { loop.deregister(fd: $0, token: token) }
        try? reader.close()
    }
}
