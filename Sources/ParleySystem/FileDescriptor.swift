import ParleyPlatform
import Synchronization

/// An open file descriptor with exactly one owner.
///
/// Non-copyable, so two owners cannot both close it, and ``close()`` consumes it, so it cannot
/// be used (or closed again) afterwards: a closed number the kernel has already handed to
/// another socket is never touched. C calls that need the number borrow it for the length of
/// a closure (``withRawValue(_:)``); nothing keeps it.
///
/// Dropping a descriptor without closing it is a bug in its owner. `deinit` still closes it,
/// so a release build never leaks the descriptor, and a debug build also counts the leak
/// (``leaksDetected``) and names it on standard error; it does not trap, because the owner's
/// remaining work (answering a peer, shutting down) matters more than the early stop.
public struct FileDescriptor: ~Copyable, Sendable {
    @usableFromInline
    let rawValue: Int32

    /// Takes ownership of `rawValue`, an open descriptor nothing else will close.
    public init(unsafeAdopting rawValue: Int32) {
        precondition(rawValue >= 0, "not a file descriptor: \(rawValue)")
        self.rawValue = rawValue
    }

    /// Runs `call` (returning a new descriptor or -1), retrying on EINTR, and owns the result.
    @inlinable
    public static func opening(_ name: StaticString, _ call: () -> Int32) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(unsafeAdopting: try SystemCall.retrying(name, call))
    }

    /// Opens `path` (`open(2)`; add `O_CLOEXEC` to `flags` yourself).
    public static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(SystemCallError) -> FileDescriptor {
        try opening("open") { Glibc.open(path, flags, permissions) }
    }

    /// Lends the descriptor's number to `body`, for a C call that needs it. Do not keep it.
    @inlinable
    public borrowing func withRawValue<Result, Failure: Error>(
        _ body: (Int32) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(rawValue)
    }

    /// Closes the descriptor: the only way to end it.
    ///
    /// Not retried on EINTR: Linux releases the number before it reports the interruption,
    /// so a second `close` could close a descriptor another thread has just opened. An error
    /// (EIO from a network file system, say) is reported, but the descriptor is gone either way.
    public consuming func close() throws(SystemCallError) {
        let raw = rawValue
        discard self
        guard Glibc.close(raw) == 0 else { throw SystemCallError(call: "close", errno: errno) }
    }

    /// Runs `body` with the descriptor, then closes it whether `body` threw or not. A failure
    /// of the close itself is not reported: it has no bearing on what `body` did.
    public consuming func closeAfter<Result: ~Copyable, Failure: Error>(
        _ body: (borrowing FileDescriptor) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        do {
            let result = try body(self)
            try? close()
            return result
        } catch {
            try? close()
            throw error
        }
    }

    /// Ends this owner without closing, handing the number to code that keeps it for good (the
    /// signal handler's end of the shutdown pipe, written to until the process exits).
    public consuming func releaseOwnership() -> Int32 {
        let raw = rawValue
        discard self
        return raw
    }

    deinit {
        #if DEBUG
        Self.leaks.add(1, ordering: .relaxed)
        let message = "parley: file descriptor \(rawValue) was dropped without close(); closing it\n"
        _ = message.withCString { Glibc.write(2, $0, strlen($0)) }
        #endif
        _ = Glibc.close(rawValue)
    }

    #if DEBUG
    private static let leaks = Atomic<Int>(0)

    /// Debug builds: how many descriptors have been dropped without ``close()`` so far.
    public static var leaksDetected: Int { leaks.load(ordering: .relaxed) }
    #endif
}
