import ParleyPlatform

/// A mutex with one condition variable, for the queues between async callers and database threads.
final class ConditionLock: @unchecked Sendable {
    // Safe to share: the pthread mutex and condition serialize all access themselves;
    // the pointers are allocated once and freed only in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        defer { pthread_condattr_destroy(&attributes) }
        #if canImport(Glibc)
        // Timed waits read the monotonic clock: setting the wall clock neither shortens nor
        // stretches them.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
    }

    #if canImport(Glibc)
    /// The clock `pthread_cond_timedwait` reads its deadline on.
    private static let waitClock = CLOCK_MONOTONIC
    #else
    // Darwin's condition variables take only the wall clock.
    private static let waitClock = CLOCK_REALTIME
    #endif

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

    /// Waits like ``wait(until:then:)``, but only until `deadline` (when given) passes: `body`
    /// then runs whether or not `ready()` became true, so it must look again itself.
    func wait<R>(until ready: () -> Bool, orUntil deadline: ContinuousClock.Instant?, then body: () -> R) -> R {
        guard let deadline else { return wait(until: ready, then: body) }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready() {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var wakeAt = Self.waitClockTime(after: left)
            pthread_cond_timedwait(condition, mutex, &wakeAt)
        }
        return body()
    }

    /// The time `delay` from now on the clock the condition waits on: the monotonic clock on
    /// Linux. (On Darwin it is the wall clock: one set forward only wakes the wait early, as the
    /// loop above measures what is left on its own clock; one set back delays the wake-up.)
    private static func waitClockTime(after delay: Duration) -> timespec {
        var time = timespec()
        clock_gettime(waitClock, &time)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(time.tv_nsec) + Int(attoseconds / 1_000_000_000) + 1
        time.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        time.tv_nsec = nanoseconds % 1_000_000_000
        return time
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
