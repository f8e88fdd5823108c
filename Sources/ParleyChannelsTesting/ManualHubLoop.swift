import ParleyChannels
import Synchronization

/// A loop for tests and single-threaded use: work runs when `runPending` is called.
public final class ManualHubLoop: HubLoop {
    private let queue = Mutex<[@Sendable () -> Void]>([])

    /// Creates an idle loop.
    public init() {}

    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(work) }
    }

    /// Runs queued work (and work it queues) until none is left; returns how many ran.
    @discardableResult
    public func runPending() -> Int {
        var ran = 0
        while true {
            let batch: [@Sendable () -> Void] = queue.withLock {
                let batch = $0
                $0 = []
                return batch
            }
            if batch.isEmpty { return ran }
            for work in batch { work() }
            ran += batch.count
        }
    }
}
