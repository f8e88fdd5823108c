import Synchronization

/// A scheduled timer; `cancel()` prevents it from firing if it has not fired yet.
public struct TimerHandle: Sendable {
    let entry: TimerEntry

    /// Cancels the timer. Safe from any thread; on its loop the timer is removed at once,
    /// from elsewhere it is marked dead immediately and removed by the loop shortly after.
    public func cancel() {
        guard !entry.cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let loop = entry.loop else { return }
        if loop.inEventLoop {
            loop.timers.remove(entry)
        } else {
            let entry = self.entry
            loop.execute { entry.loop?.timers.remove(entry) }
        }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { entry.cancelled.load(ordering: .acquiring) }
}

/// The heap node behind a ``TimerHandle``.
final class TimerEntry: @unchecked Sendable {
    // @unchecked: `deadline`, `sequence`, `heapIndex` and `task` are touched only on the
    // owning loop's thread; `cancelled` is atomic and is the only field other threads use.
    let deadline: UInt64
    var sequence: UInt64
    var heapIndex = -1
    var task: (() -> Void)?
    let cancelled = Atomic<Bool>(false)
    weak var loop: EventLoop?

    init(deadline: UInt64, sequence: UInt64, loop: EventLoop, task: @escaping () -> Void) {
        self.deadline = deadline
        self.sequence = sequence
        self.loop = loop
        self.task = task
    }

    /// Heap order: earlier deadline first, then scheduling order.
    @inline(__always)
    func firesBefore(_ other: TimerEntry) -> Bool {
        deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
    }
}
