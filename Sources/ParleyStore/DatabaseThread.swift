#if canImport(Glibc)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let status = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            DatabaseThread.adoptProcessDefaults(name: body.name)
            body.run()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed with \(status)")
        pthread_detach(thread)
    }

    /// Names the calling thread and gives it the nice value of the process's main thread.
    /// Lowering the nice value needs privilege (a server started with `nice -n -20` has it);
    /// without it the thread keeps the one it inherited.
    private static func adoptProcessDefaults(name: String) {
        #if canImport(Glibc)
        _ = clinux_name_current_thread(String(name.utf8.prefix(15))!)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let processNice = getpriority(which, id_t(getpid()))
        guard errno == 0 else { return }
        // On Linux, `who` 0 means the calling thread: nice values are per thread.
        _ = setpriority(which, 0, processNice)
        #endif
    }
}
