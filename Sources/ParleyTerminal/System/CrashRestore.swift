import ParleyPlatform

/// Puts the terminal back from a crash signal handler, then lets the previous handler (the
/// runtime's backtracer, or the default action) run.
///
/// Everything the handler touches is allocated before handlers are installed; the handler
/// itself only calls `write`, `tcsetattr` and `sigaction`, which are async-signal-safe.
enum CrashRestore {
    private struct Armed {
        var input: Int32
        var output: Int32
        var saved: UnsafeMutablePointer<termios>
        var leave: UnsafeMutableBufferPointer<UInt8>
        var previous: UnsafeMutablePointer<sigaction>
    }

    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    // Written on the main thread before handlers exist and cleared after they are removed;
    // the handler only reads it.
    nonisolated(unsafe) private static var armed: Armed?

    static func arm(input: Int32, output: Int32, saved: termios, leave: [UInt8]) {
        disarm()
        let savedCopy = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        savedCopy.initialize(to: saved)
        let leaveCopy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leave.count)
        _ = leaveCopy.initialize(from: leave)
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        previous.initialize(repeating: sigaction(), count: Int(NSIG))
        armed = Armed(input: input, output: output, saved: savedCopy, leave: leaveCopy, previous: previous)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in CrashRestore.handle(signal) }
        sigemptyset(&action.sa_mask)
        for signal in signals { sigaction(signal, &action, previous + Int(signal)) }
    }

    /// Puts the previous handlers back and frees the copies.
    static func disarm() {
        guard let current = armed else { return }
        for signal in signals { sigaction(signal, current.previous + Int(signal), nil) }
        armed = nil
        current.saved.deallocate()
        current.leave.deallocate()
        current.previous.deallocate()
    }

    /// Restores the saved terminal settings (normal exit path).
    static func restoreSettings() {
        guard let current = armed else { return }
        tcsetattr(current.input, TCSAFLUSH, current.saved)
    }

    private static func handle(_ signal: Int32) {
        guard let current = armed else { return }
        _ = write(current.output, current.leave.baseAddress, current.leave.count)
        tcsetattr(current.input, TCSANOW, current.saved)
        // The signal is blocked while this runs: raised again, it reaches the previous handler
        // as soon as this returns (a fault would also recur on return; a kill(2) would not).
        sigaction(signal, current.previous + Int(signal), nil)
        raise(signal)
    }
}
