@testable import ParleyStore

/// Holds the writer thread inside an operation until the test opens it, so the test can
/// queue more operations behind it deterministically (no timing involved).
final class Gate: Sendable {
    private let lock = ConditionLock()
    private nonisolated(unsafe) var entered = false  // guarded by lock
    private nonisolated(unsafe) var isOpen = false  // guarded by lock

    /// Called on the writer thread: records arrival, then blocks until `open()`.
    func pass() {
        lock.withLock {
            entered = true
            lock.broadcast()
        }
        lock.wait(until: { isOpen }) {}
    }

    var hasEntered: Bool { lock.withLock { entered } }

    func open() {
        lock.withLock {
            isOpen = true
            lock.broadcast()
        }
    }
}

/// Polls `condition` (yielding between checks) until it holds.
func eventually(_ condition: () -> Bool) async throws {
    while !condition() {
        try await Task.sleep(for: .milliseconds(1))
    }
}
