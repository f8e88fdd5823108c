import Synchronization

/// A plain mutual-exclusion lock for small critical sections off the hot path.
final class NSLockLite: Sendable {
    private let mutex = Mutex<Void>(())

    /// Runs `body` while holding the lock.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body() }
    }
}
