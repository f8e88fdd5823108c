/// Makes the SQLite writer's committed transactions durable on a thread of its own, so the
/// writer runs the next batch while the previous one's log pages go to disk.
///
/// With `synchronous=FULL` SQLite fsyncs the log inside every COMMIT, and the writer does
/// nothing else meanwhile: its cycle is the batch's statements *plus* the fsync. Instead the
/// writer's connection runs with `synchronous=NORMAL` (COMMIT writes the log, no fsync) and hands
/// each committed batch here; this thread calls `fdatasync` on the log and only then answers the
/// batch's callers. One fsync covers every batch committed before it started, so the cycle becomes
/// the longer of the two instead of their sum. Nothing is acknowledged before it is durable.
///
/// Readers could still see a committed batch before its fsync; `waitUntilDurable()` holds a read's
/// answer until every commit that had begun when the read ended is durable, so no read returns
/// data a power loss could take back.
final class WALSyncer: @unchecked Sendable {
    // Safe to share: every stored property except `sync` is only touched while holding `lock`;
    // `sync` runs on the syncer thread alone.
    private let lock = ConditionLock()
    private var pending: [CommittedBatch] = []
    private var begun: UInt64 = 0
    private var durable: UInt64 = 0
    private var waiters: [(target: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    private var statistics = SyncStatistics()
    private var isSyncing = false
    private var brokenBy: StoreError?
    private var isClosed = false
    private var hasStopped = false
    private var idleHandler: (@Sendable () -> Void)?
    private let sync: () throws(StoreError) -> Void
    private let trace: StoreTrace?

    private struct CommittedBatch {
        let id: UInt64
        let jobs: [any WriteJob]
        let failure: StoreError?
    }

    private init(sync: @escaping () throws(StoreError) -> Void, trace: StoreTrace?) {
        self.sync = sync
        self.trace = trace
    }

    /// Starts the syncer thread for the log of the SQLite database at `databasePath`.
    static func start(databasePath: String, trace: StoreTrace? = nil) -> WALSyncer {
        let file = WALFile(databasePath: databasePath)
        return start(trace: trace, sync: { () throws(StoreError) in try file.sync() })
    }

    /// Starts the syncer thread with `sync` as the flush (tests pass one they control).
    static func start(trace: StoreTrace? = nil, sync: @escaping () throws(StoreError) -> Void) -> WALSyncer {
        let syncer = WALSyncer(sync: sync, trace: trace)
        DatabaseThread.start(name: "parley-wal-sync") { syncer.run() }
        return syncer
    }

    /// Sets what to call (outside the syncer's lock) whenever an fsync ends with nothing left to flush.
    func setIdleHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock { idleHandler = handler }
    }

    /// Whether an fsync is running or committed batches wait for one.
    var isBusy: Bool {
        lock.withLock { isSyncing || !pending.isEmpty }
    }

    /// Set once an fsync of the log failed: from then on nothing is acknowledged (see `run`).
    var failure: StoreError? {
        lock.withLock { brokenBy }
    }

    /// Called by the writer right before COMMIT; returns the commit's number.
    func beginCommit() -> UInt64 {
        lock.withLock {
            begun += 1
            return begun
        }
    }

    /// Hands over the jobs of commit `id` (after COMMIT returned, or failed with `failure`):
    /// they are answered after the next fsync.
    func committed(_ id: UInt64, jobs: [any WriteJob], failure: StoreError?) {
        lock.withLock {
            pending.append(CommittedBatch(id: id, jobs: jobs, failure: failure))
            if pending.count == 1 { lock.broadcast() }
        }
    }

    /// Blocks the calling thread until every commit begun so far is durable (or the log is broken).
    func waitUntilDurableBlocking() {
        lock.wait(until: { durable >= begun || brokenBy != nil }) {}
    }

    /// Marks the store broken by `error` (a failed fsync the log's safety depended on): from
    /// now on every batch fails with it, as after a failed fsync of the log.
    func markBroken(_ error: StoreError) {
        lock.withLock {
            if brokenBy == nil { brokenBy = error }
            lock.broadcast()
        }
    }

    /// Returns once every commit begun before this call is durable.
    func waitUntilDurable() async {
        let ready = lock.withLock { durable >= begun }
        if ready { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = lock.withLock {
                if durable >= begun { return true }
                waiters.append((begun, continuation))
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Counters (fsyncs against batches) for tests and diagnostics.
    var currentStatistics: SyncStatistics {
        lock.withLock { statistics }
    }

    /// Syncs and answers what is pending, then stops the thread; returns once it has.
    func close() {
        lock.withLock {
            isClosed = true
            lock.broadcast()
        }
        lock.wait(until: { hasStopped }) {}
    }

    private func run() {
        while let batches = nextBatches() {
            // After a failed fsync the kernel may have dropped the pages it could not write, and
            // a later fsync would report success for them: the log can no longer be trusted, so
            // every later batch fails with the first error until the server is restarted (and
            // SQLite recovers from what is really on disk).
            var failure = self.failure
            let last = Int64(batches[batches.count - 1].id)
            var took: UInt64 = 0
            if failure == nil {
                trace?.record(.syncBegin, last, Int64(batches.count))
                let started = StoreTrace.now()
                defer {
                    took = StoreTrace.now() - started
                    trace?.record(.syncEnd, last, failure == nil ? 1 : 0)
                }
                do {
                    try sync()
                } catch {
                    failure = error
                    lock.withLock {
                        brokenBy = StoreError(
                            .io,
                            "the write-ahead log could not be flushed (\(error.message)); "
                                + "no write is acknowledged until the server restarts")
                    }
                }
            }
            // Counters and the durable mark first, so a caller that was answered sees them.
            let (released, idle) = markDurable(
                upTo: batches[batches.count - 1].id, failed: failure != nil,
                batches: batches.count, took: took)
            for batch in batches {
                for job in batch.jobs { job.finish(batchFailure: batch.failure ?? failure) }
            }
            if let trace { trace.record(.answered, last, Int64(batches.reduce(0) { $0 + $1.jobs.count })) }
            for waiter in released { waiter.resume() }
            idle?()
        }
        lock.withLock {
            hasStopped = true
            lock.broadcast()
        }
    }

    /// Blocks until batches are pending; nil once closed with nothing left.
    private func nextBatches() -> [CommittedBatch]? {
        lock.wait(until: { !pending.isEmpty || isClosed }) {
            guard !pending.isEmpty else { return nil }
            isSyncing = true
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
    }

    /// Records the fsync's outcome; returns the readers it releases and, when nothing is left to
    /// flush, the handler to tell.
    private func markDurable(
        upTo id: UInt64, failed: Bool, batches: Int,
        took: UInt64
    ) -> ([CheckedContinuation<Void, Never>], (@Sendable () -> Void)?) {
        lock.withLock {
            isSyncing = false
            // After a failed fsync nothing newer can be called durable, but readers are released
            // anyway: they saw what the writer committed, and holding them forever helps no one.
            durable = max(durable, id)
            lock.broadcast()  // a writer may wait for this mark (waitUntilDurableBlocking)
            statistics.syncs += 1
            statistics.batches += batches
            if took > 0 { statistics.durations.record(nanoseconds: took) }
            if failed { statistics.failures += 1 }
            var released: [CheckedContinuation<Void, Never>] = []
            waiters.removeAll { waiter in
                guard waiter.target <= durable else { return false }
                released.append(waiter.continuation)
                return true
            }
            return (released, pending.isEmpty ? idleHandler : nil)
        }
    }
}
