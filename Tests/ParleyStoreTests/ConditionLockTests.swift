import Foundation
import Testing

@testable import ParleyStore

/// The writer's idle wait: a timed wait must end at its deadline on its own, and a signal must
/// end it sooner. A deadline computed on another clock than the condition's would end the wait
/// at once or never; a thread that rescues a stuck wait after 3 s turns the latter into a
/// failure. Every wait runs on a thread of its own, not on the tests' shared executor.
@Suite struct ConditionLockTests {
    final class Flag: @unchecked Sendable {
        // Read and written only under the lock the test hands around.
        var raised = false
    }

    @Test func aTimedWaitEndsAtItsDeadline() async {
        let lock = ConditionLock()
        let rescued = Flag()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 3)
            lock.withLock { rescued.raised = true }
            lock.broadcast()
        }
        let (woke, waited) = await Self.onThread {
            let start = ContinuousClock.now
            let woke = lock.wait(until: { rescued.raised }, orUntil: start + .milliseconds(50)) { rescued.raised }
            return (woke, ContinuousClock.now - start)
        }
        #expect(!woke, "the deadline ended the wait, not the rescue")
        #expect(waited >= .milliseconds(50))
        #expect(waited < .seconds(2))
    }

    @Test func aSignalEndsATimedWaitBeforeItsDeadline() async {
        let lock = ConditionLock()
        let ready = Flag()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.02)
            lock.withLock { ready.raised = true }
            lock.signal()
        }
        let (woke, waited) = await Self.onThread {
            let start = ContinuousClock.now
            let woke = lock.wait(until: { ready.raised }, orUntil: start + .seconds(10)) { ready.raised }
            return (woke, ContinuousClock.now - start)
        }
        #expect(woke)
        #expect(waited < .seconds(5))
    }

    /// `body`'s result, run on a fresh thread.
    private static func onThread<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
