/// The one writer of a database: a dedicated thread that runs every write operation,
/// batching all operations that arrive while a commit is in flight into one transaction.
///
/// Each operation runs inside its own savepoint, so one that fails is rolled back alone and
/// gets its own error while the rest of its batch commits. Callers are resumed only after
/// COMMIT returned, i.e. once their write is durable; a batch costs one fsync, not one per write.
final class GroupCommitWriter: @unchecked Sendable {
    // Safe to share: `queue`, `isClosed`, `statistics` and `stopped` are only touched while
    // holding `lock`; the connection itself never leaves the writer thread.
    private let lock = ConditionLock()
    private var queue = JobQueue<any WriteJob>()
    private var isClosed = false
    private var statistics = WriterStatistics()
    private var stopped: CheckedContinuation<Void, Never>?
    private var hasStopped = false

    private let maxBatchSize: Int
    private let clock: StoreClock

    private init(maxBatchSize: Int, clock: StoreClock) {
        self.maxBatchSize = max(1, maxBatchSize)
        self.clock = clock
    }

    /// Starts the writer thread: it opens its connection with `open`, runs `prepare` (migrations)
    /// on it, and only then begins taking operations. Throws what `open` or `prepare` threw.
    static func start(
        name: String,
        maxBatchSize: Int,
        clock: StoreClock,
        open: @escaping @Sendable () throws -> any SQLConnection,
        prepare: @escaping @Sendable (SQLContext) throws -> Void
    ) async throws -> GroupCommitWriter {
        let writer = GroupCommitWriter(maxBatchSize: maxBatchSize, clock: clock)
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            DatabaseThread.start(name: name) {
                var connection: (any SQLConnection)?
                do {
                    let opened = try open()
                    connection = opened
                    try prepare(SQLContext(connection: opened, now: clock.now()))
                } catch {
                    connection = nil
                    started.resume(throwing: error)
                    return
                }
                started.resume()
                let waiter = writer.run(on: connection!)
                connection = nil  // closes the database before close() returns
                waiter?.resume()
            }
        }
        return writer
    }

    /// Queues `operation` and waits until the transaction carrying it has committed.
    func submit<T: Sendable>(_ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job = TypedWriteJob(operation: operation, continuation: continuation)
            let accepted = lock.withLock {
                guard !isClosed else { return false }
                queue.append(job)
                if queue.count == 1 { lock.signal() }
                return true
            }
            if !accepted {
                continuation.resume(throwing: StoreError(.closed, "the store is closed"))
            }
        }
    }

    /// A snapshot of the writer's counters.
    var currentStatistics: WriterStatistics {
        lock.withLock {
            var snapshot = statistics
            snapshot.queued = queue.count
            return snapshot
        }
    }

    /// Stops taking operations, finishes the queued ones, closes the connection and returns.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyStopped = lock.withLock {
                isClosed = true
                lock.broadcast()
                if hasStopped { return true }
                if stopped != nil { return true }  // someone else is already waiting
                stopped = continuation
                return false
            }
            if alreadyStopped { continuation.resume() }
        }
    }

    /// The writer thread's loop: take everything queued (up to the batch limit), commit it, repeat.
    /// Returns the close() waiter to resume once the connection is gone.
    private func run(on connection: any SQLConnection) -> CheckedContinuation<Void, Never>? {
        while let batch = nextBatch() {
            commit(batch, on: connection)
        }
        return lock.withLock {
            hasStopped = true
            return stopped
        }
    }

    /// Blocks until operations are queued; nil once the writer is closed and drained.
    private func nextBatch() -> [any WriteJob]? {
        lock.wait(until: { !queue.isEmpty || isClosed }) {
            queue.isEmpty ? nil : queue.popFirst(upTo: maxBatchSize)
        }
    }

    /// Runs `batch` in one transaction and resumes every caller after it ended.
    private func commit(_ batch: [any WriteJob], on connection: any SQLConnection) {
        let failure = runTransaction(batch, on: connection)
        lock.withLock {
            if failure == nil {
                statistics.transactions += 1
                statistics.operations += batch.count
                statistics.largestBatch = max(statistics.largestBatch, batch.count)
                if batch.count > 1 { statistics.sharedTransactions += 1 }
            } else {
                statistics.failedBatches += 1
            }
        }
        for job in batch {
            job.finish(batchFailure: failure)
        }
    }

    /// BEGIN, each operation in its savepoint, COMMIT; returns the error that sank the whole batch, if any.
    private func runTransaction(_ batch: [any WriteJob], on connection: any SQLConnection) -> StoreError? {
        do {
            try begin(on: connection)
        } catch {
            return error
        }
        do {
            if batch.count == 1 {
                // A lone operation needs no savepoint: if it fails, the whole transaction rolls back.
                let context = SQLContext(connection: connection, now: clock.now())
                if !batch[0].perform(context) {
                    try connection.run("ROLLBACK")
                    return nil
                }
            } else {
                for job in batch {
                    try runInSavepoint(job, on: connection)
                }
            }
            try connection.run("COMMIT")
            return nil
        } catch {
            try? connection.run("ROLLBACK")
            return error
        }
    }

    /// Starts the batch's transaction; a server connection found dead is re-established once,
    /// which is safe because nothing of the batch has run yet.
    private func begin(on connection: any SQLConnection) throws(StoreError) {
        let statement = connection.dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        if !connection.isHealthy { try connection.reconnect() }
        do {
            try connection.run(statement)
        } catch where error.code == .connectionLost {
            try connection.reconnect()
            try connection.run(statement)
        }
    }

    private func runInSavepoint(_ job: any WriteJob, on connection: any SQLConnection) throws(StoreError) {
        try connection.run("SAVEPOINT parley_operation")
        if job.perform(SQLContext(connection: connection, now: clock.now())) {
            try connection.run("RELEASE SAVEPOINT parley_operation")
        } else {
            try connection.run("ROLLBACK TO SAVEPOINT parley_operation")
            try connection.run("RELEASE SAVEPOINT parley_operation")
        }
    }
}
