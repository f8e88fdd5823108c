import ParleyPlatform
import Synchronization

/// Debug-build checks of "used on one thread only" promises (an event loop's connections, a
/// SQLite connection opened without SQLite's own mutex).
///
/// A violation stops a debug build with the message, unless a test has installed a handler
/// with ``withViolationHandler(_:_:)`` to see that the check fires. Release builds check
/// nothing: the checks sit under `#if DEBUG`, and ``OwningThread`` then holds nothing.
public enum ThreadConfinement {
    #if DEBUG
    private static let handler = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Held while a handler is installed, so tests running in parallel take turns.
    private static let installed = Atomic<Bool>(false)

    /// Reports a use off the owning thread. Debug builds only.
    public static func reportViolation(_ message: String, file: StaticString = #fileID, line: UInt = #line) {
        if let handler = handler.withLock({ $0 }) {
            handler(message)
        } else {
            preconditionFailure(message, file: file, line: line)
        }
    }

    /// Runs `body` with violations passed to `observe` instead of stopping the process, so a
    /// test can show that a check exists. Debug builds only. Callers on different threads take
    /// turns (one handler at a time); nesting on one thread would wait for ever.
    public static func withViolationHandler<Result>(
        _ observe: @escaping @Sendable (String) -> Void,
        _ body: () throws -> Result
    ) rethrows -> Result {
        while !installed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            usleep(1_000)
        }
        handler.withLock { $0 = observe }
        defer {
            handler.withLock { $0 = nil }
            installed.store(false, ordering: .releasing)
        }
        return try body()
    }
    #endif
}
