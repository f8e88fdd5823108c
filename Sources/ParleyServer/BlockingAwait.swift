import ParleyPlatform

/// Runs async work from synchronous code (startup and shutdown on the main thread) and waits
/// for its result. Never call it from a task or an event loop: it blocks the calling thread.
enum BlockingAwait {
    /// Starts `body` in a task and blocks until it returns its value.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let slot = ResultSlot<T>()
        Task { slot.fill(await body()) }
        return slot.take()
    }
}

/// One value handed from a task to a waiting thread through a POSIX semaphore.
private final class ResultSlot<T: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is written once before `sem_post` and read only after `sem_wait`,
    // which orders the two; the semaphore pointer lives as long as the slot.
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private var value: T?

    init() { sem_init(semaphore, 0, 0) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func fill(_ value: T) {
        self.value = value
        sem_post(semaphore)
    }

    func take() -> T {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
        return value!
    }
}
