import ParleyPlatform

/// Starts detached OS threads for database connections, so blocking C calls
/// (fsync, network round trips) never occupy Swift's cooperative thread pool.
///
/// A new thread inherits its creator's name and nice value. Stores are opened from async code,
/// so without care their threads would be named and prioritised like the Swift pool's worker
/// that opened them (on Linux a "user-initiated" worker runs at nice −2), apart from the event
/// loops, which run at the process's own: under `nice -n -20` the loops would outweigh the
/// writer about fifty to one whenever both want a core. Each database thread therefore takes
/// its own name and the process's nice value when it starts.
enum DatabaseThread {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Runs `body` on a new detached thread named `name` (at most 15 bytes are kept).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                CurrentThread.adoptProcessDefaults(name: body.name)
                body.run()
                return nil
            }, context)
        precondition(status == 0, "pthread_create failed with \(status)")
        pthread_detach(thread)
    }
}
