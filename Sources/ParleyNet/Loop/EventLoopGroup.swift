import CLinux
import Glibc
import Synchronization

/// A fixed set of ``EventLoop``s, one thread each, handed out round robin.
///
/// Threading: every method is safe from any thread, except ``join()`` and
/// ``shutdownAndWait()``, which block and must not be called from one of the group's loops.
public final class EventLoopGroup: Sendable {
    /// The loops, in index order.
    public let loops: [EventLoop]
    /// The readiness backend every loop uses.
    public let backend: SelectorBackend
    private let cursor = Atomic<Int>(0)
    private let joined = Mutex<Bool>(false)

    /// The number of CPU cores this process may run on (its affinity mask, so `taskset`
    /// pinning is honoured), at least 1.
    public static var coreCount: Int {
        let allowed = Int(clinux_available_cpus())
        return max(1, allowed > 0 ? allowed : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Starts `threads` loops on `backend`.
    ///
    /// Also sets SIGPIPE to ignored for the process: writes use MSG_NOSIGNAL, but a stray
    /// write elsewhere to a dead socket must not kill a server.
    public init(
        threads: Int = EventLoopGroup.coreCount,
        backend: SelectorBackend = .platformDefault,
        logger: NetLogger = .standardError()
    ) throws(NetError) {
        precondition(threads > 0, "an event loop group needs at least one thread")
        ignoreSIGPIPE()
        var loops: [EventLoop] = []
        for index in 0..<threads {
            loops.append(try EventLoop(index: index, backend: backend, logger: logger))
        }
        self.loops = loops
        self.backend = backend
        for loop in loops { try loop.start() }
    }

    /// The next loop in round-robin order. Any thread.
    public func next() -> EventLoop {
        let index = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[index % loops.count]
    }

    /// Asks every loop to stop; does not wait. Any thread.
    public func shutdown() {
        for loop in loops { loop.stop() }
    }

    /// Blocks until every loop thread has exited. Not from a loop thread.
    public func join() {
        precondition(
            EventLoop.current.map { loop in !loops.contains { $0 === loop } } ?? true,
            "EventLoopGroup.join() called from one of its own loops")
        joined.withLock { done in
            guard !done else { return }
            for loop in loops { loop.join() }
            done = true
        }
    }

    /// Stops every loop and waits for their threads. Not from a loop thread.
    public func shutdownAndWait() {
        shutdown()
        join()
    }
}

private func ignoreSIGPIPE() {
    signal(SIGPIPE, SIG_IGN)
}
