import CLinux
import Glibc
import ParleyPlatform

/// Runs blocking work (name resolution) on a short-lived detached thread, off the loops.
enum BlockingWork {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func run(_ body: @escaping @Sendable () -> Void) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        let rc = clinux_thread_create(
            &thread,
            { context in
                CurrentThread.adoptProcessDefaults(name: "parley-blocking")
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            }, context)
        if rc == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        }
    }
}
