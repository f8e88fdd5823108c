/// An event loop as the hub sees it: something that runs work on its own thread, in order.
///
/// ParleyNet's event loops conform in the service; tests use `ManualHubLoop`.
public protocol HubLoop: AnyObject, Sendable {
    /// Runs `work` on the loop's thread after what is already queued (FIFO).
    func execute(_ work: @escaping @Sendable () -> Void)
}

/// A loop for tests and single-threaded use: work runs when `runPending` is called.
public final class ManualHubLoop: HubLoop, @unchecked Sendable {
    // @unchecked: the queue is only touched under `lock`.
    private let lock = NSLockLite()
    private var queue: [@Sendable () -> Void] = []

    /// Creates an idle loop.
    public init() {}

    public func execute(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { queue.append(work) }
    }

    /// Runs queued work (and work it queues) until none is left; returns how many ran.
    @discardableResult
    public func runPending() -> Int {
        var ran = 0
        while true {
            let batch: [@Sendable () -> Void] = lock.withLock {
                let b = queue
                queue = []
                return b
            }
            if batch.isEmpty { return ran }
            for work in batch { work() }
            ran += batch.count
        }
    }
}
