import ParleyNet
import Synchronization

/// Holds back what a signal asks of the server until the server listens.
///
/// The signal handlers are installed before the server starts, so a SIGTERM during start-up is
/// caught (the default action would kill the process) rather than lost; but shutting down a
/// server that is still starting would race its start. What such a signal asks is queued here
/// and runs on the loop once ``open(on:)`` is called after the start.
final class StartupSignalGate: Sendable {
    private let state = Mutex<(open: Bool, pending: [@Sendable () -> Void])>((false, []))

    /// Runs `action` now if the server has started, else once it has.
    func run(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.open { return true }
            state.pending.append(action)
            return false
        }
        if now { action() }
    }

    /// The server listens: runs the held actions on `loop`, in the order their signals came.
    func open(on loop: EventLoop) {
        let pending = state.withLock { state in
            state.open = true
            defer { state.pending = [] }
            return state.pending
        }
        guard !pending.isEmpty else { return }
        loop.execute { for action in pending { action() } }
    }
}
