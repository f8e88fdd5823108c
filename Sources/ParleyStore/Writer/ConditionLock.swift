import ParleyPlatform

/// A mutex with one condition variable, for the queues between async callers and database threads.
final class ConditionLock: @unchecked Sendable {
    // Safe to share: the pthread mutex and condition serialize all access themselves;
    // the pointers are allocated once and freed only in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (holding the mutex between wake-ups) until `ready()` is true, then runs `body` still holding it.
    func wait<R>(until ready: () -> Bool, then body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready() {
            pthread_cond_wait(condition, mutex)
        }
        return body()
    }

    /// Wakes every waiter.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Wakes one waiter.
    func signal() {
        pthread_cond_signal(condition)
    }
}
