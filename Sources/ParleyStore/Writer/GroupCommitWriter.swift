import ParleyPlatform

/// A writer of a database (SQLite's only one, or one of PostgreSQL's pool): a dedicated thread
/// that runs every write operation given to it, batching all operations that arrive while a commit is in flight into one transaction.
///
/// Each operation runs inside its own savepoint, so one that fails is rolled back alone and
/// gets its own error while the rest of its batch commits. Consecutive single-statement
/// operations (`StatementWriteJob`) instead go out together as one pipeline under one savepoint;
/// if a statement of the run raises an error, the run is undone and its operations redone one
/// by one in their own savepoints. Callers are resumed only after COMMIT returned, i.e. once
/// their write is durable; a batch costs one fsync, not one per write.
///
/// With `idleWork` (SQLite: merging the search index), the thread runs a step of it, in a
/// transaction of its own, whenever it finds nothing queued and the work is due; it looks at the
/// queue again after every step, so an operation arriving meanwhile waits for one step at most.
final class GroupCommitWriter: @unchecked Sendable {
    // Safe to share: `queue`, `isClosed`, `statistics` and `stopped` are only touched while
    // holding `lock`; the connection itself never leaves the writer thread.
    private let lock = ConditionLock()
    private var queue = JobQueue<QueuedWrite>()
    private var isClosed = false
    private var statistics = WriterStatistics()
    private var stopped: CheckedContinuation<Void, Never>?
    private var hasStopped = false

    private let maxBatchSize: Int
    /// Runs of a batch that PostgreSQL keeps rolling back for deadlocks before its callers get `busy`.
    private static let contentionAttempts = 8
    /// What a batch rolled back for a deadlock or serialization failure ends with (retried first).
    private static let contention = StoreError(.busy, "the database rolled the transaction back for a deadlock or serialization failure")
    private let clock: StoreClock
    private let syncer: WALSyncer?
    private let trace: StoreTrace?
    /// Work every transaction ends with, after its operations and before COMMIT (SQLite's search
    /// index takes the transaction's new messages in one statement there); when it throws, the
    /// whole batch fails.
    private let beforeCommit: (@Sendable (SQLContext) throws(StoreError) -> Void)?
    /// What the thread does while nothing is queued (see the type's summary).
    private let idleWork: (any WriterIdleWork)?

    private init(
        maxBatchSize: Int, clock: StoreClock, syncer: WALSyncer?, trace: StoreTrace?,
        beforeCommit: (@Sendable (SQLContext) throws(StoreError) -> Void)?, idleWork: (any WriterIdleWork)?
    ) {
        self.maxBatchSize = max(1, maxBatchSize)
        self.clock = clock
        self.syncer = syncer
        self.trace = trace
        self.beforeCommit = beforeCommit
        self.idleWork = idleWork
    }

    /// Starts the writer thread: it opens its connection with `open`, runs `prepare` (migrations)
    /// on it, and only then begins taking operations. Throws what `open` or `prepare` threw.
    ///
    /// With a `syncer` (SQLite opened with `synchronous=NORMAL`) committed batches are answered
    /// by the syncer after its fsync, while this thread goes on with the next batch.
    static func start(
        name: String,
        maxBatchSize: Int,
        clock: StoreClock,
        syncer: WALSyncer? = nil,
        trace: StoreTrace? = nil,
        beforeCommit: (@Sendable (SQLContext) throws(StoreError) -> Void)? = nil,
        idleWork: (any WriterIdleWork)? = nil,
        open: @escaping @Sendable () throws -> any SQLConnection,
        prepare: @escaping @Sendable (SQLContext) throws -> Void
    ) async throws -> GroupCommitWriter {
        let writer = GroupCommitWriter(
            maxBatchSize: maxBatchSize, clock: clock, syncer: syncer, trace: trace, beforeCommit: beforeCommit,
            idleWork: idleWork)
        syncer?.setIdleHandler { [weak writer] in writer?.wake() }
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            DatabaseThread.start(name: name) {
                var connection: (any SQLConnection)?
                do {
                    let opened = try open()
                    opened.setCommitHoldHandler { [weak writer] in writer?.wake() }
                    connection = opened
                    try prepare(SQLContext(connection: opened, now: clock.now()))
                } catch {
                    connection = nil
                    syncer?.close()
                    started.resume(throwing: error)
                    return
                }
                started.resume()
                let waiter = writer.run(on: connection!)
                syncer?.close()  // answers the last batches before the connection goes
                connection = nil  // closes the database before close() returns
                waiter?.resume()
            }
        }
        return writer
    }

    /// Queues `operation` and waits until the transaction carrying it has committed.
    func submit<T: Sendable>(_ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(TypedWriteJob(operation: operation, continuation: continuation))
        }
    }

    /// Queues a single-statement operation (see `StatementWriteJob`) and waits until the
    /// transaction carrying it has committed.
    func submit<Row, T: Sendable>(
        statement: @escaping @Sendable (Int64) -> SQLStatement,
        decode: @escaping @Sendable (any SQLRow) throws -> Row,
        complete: @escaping @Sendable (SQLContext, Row?) throws -> T,
        coalescing: (statement: CoalescedStatement, arguments: [String?])?
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(
                TypedStatementWriteJob(
                    statement: statement, decode: decode, complete: complete,
                    coalescing: coalescing, continuation: continuation))
        }
    }

    private func enqueue(_ job: some WriteJob) {
        let queued = QueuedWrite(job: job, enqueuedAt: trace == nil ? 0 : StoreTrace.now())
        let accepted = lock.withLock {
            guard !isClosed else { return false }
            queue.append(queued)
            if queue.count == 1 { lock.signal() }
            return true
        }
        if !accepted {
            job.finish(batchFailure: StoreError(.closed, "the store is closed"))
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

    /// Whether ``close()`` was called.
    var isClosing: Bool {
        lock.withLock { isClosed }
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

    /// What the writer thread does next.
    private enum NextWork {
        case batch([QueuedWrite])
        case idleStep(any WriterIdleWork)
        /// The idle work's `dueAt` passed: look at it again.
        case idleDeadline
    }

    /// The writer thread's loop: take everything queued (up to the batch limit), commit it, repeat;
    /// with nothing queued, a step of the idle work when it is due.
    /// Returns the close() waiter to resume once the connection is gone.
    private func run(on connection: any SQLConnection) -> CheckedContinuation<Void, Never>? {
        while let next = nextWork() {
            switch next {
            case .batch(let taken): commit(taken.map(\.job), on: connection)
            case .idleStep(let work): runIdleStep(work, on: connection)
            case .idleDeadline: continue
            }
        }
        return lock.withLock {
            hasStopped = true
            return stopped
        }
    }

    /// Blocks until operations are queued or the idle work's `dueAt` passed, or returns at once
    /// with a step of due idle work when none are; nil once the writer is closed and drained
    /// (idle work left is left for later).
    private func nextWork() -> NextWork? {
        // Only this thread's transactions and the passing of `dueAt` make idle work due, so
        // waiting until that instant is enough. `dueAt` is read first: a rest ending between
        // the two reads then shows as due rather than as nothing to wake up for.
        let wakeAt = idleWork?.dueAt
        let dueWork = idleWork?.isDue == true ? idleWork : nil
        let next = lock.wait(until: { !queue.isEmpty || isClosed || dueWork != nil }, orUntil: wakeAt) { () -> NextWork? in
            if !queue.isEmpty { return .batch(queue.popFirst(upTo: maxBatchSize)) }
            if isClosed { return nil }
            return dueWork.map { .idleStep($0) } ?? .idleDeadline
        }
        if case .batch(let taken) = next { trace?.record(.take, Int64(taken.count), Int64(taken[0].enqueuedAt)) }
        return next
    }

    /// One step of the idle work in a transaction of its own, committed when it did something
    /// (made durable by the syncer like any commit, though nobody waits for it) and rolled back
    /// when it did nothing or failed (which pauses the work until it is due again).
    private func runIdleStep(_ work: any WriterIdleWork, on connection: any SQLConnection) {
        guard syncer?.failure == nil else { return work.pause() }
        let started = StoreTrace.now()
        var worked = false
        var commitID: UInt64?
        do {
            try begin(on: connection)
            worked = try work.step(SQLContext(connection: connection, now: clock.now()))
            if worked {
                try waitForCommitHold(on: connection)
                commitID = syncer?.beginCommit()
                try commitTraced(commitID, operations: 0, on: connection)
            } else {
                try connection.run("ROLLBACK")
            }
        } catch {
            try? connection.run("ROLLBACK")
            work.pause()
            worked = false
        }
        if let syncer, let commitID { syncer.committed(commitID, jobs: [], failure: nil) }
        connection.afterCommit(waitUntilDurable: { syncer?.waitUntilDurableBlocking() })
        guard worked else { return }
        let elapsed = Int(StoreTrace.now() - started)
        lock.withLock {
            statistics.idleSteps += 1
            statistics.idleStepNanoseconds += elapsed
            statistics.longestIdleStepNanoseconds = max(statistics.longestIdleStepNanoseconds, elapsed)
        }
    }

    /// Runs `batch` in one transaction and resumes every caller after it ended.
    private func commit(_ first: [any WriteJob], on connection: any SQLConnection) {
        var counters = BatchCounters()
        var commitID: UInt64?
        var batch = first
        var failure = runTransaction(&batch, on: connection, counters: &counters, commitID: &commitID)
        var attempt = 1
        while failure?.code == .busy, connection.dialect == .postgres, attempt < Self.contentionAttempts {
            // A deadlock with another writer (of this pool or another node) or a serialization
            // failure: the server rolled our work back, and running it again is what resolves it.
            counters.contentionRetries += 1
            usleep(UInt32(attempt) * 2_000)
            attempt += 1
            failure = runTransaction(&batch, on: connection, counters: &counters, commitID: &commitID)
        }
        lock.withLock {
            statistics.pipelinedOperations += counters.pipelinedOperations
            statistics.pipelineRetries += counters.pipelineRetries
            statistics.coalescedOperations += counters.coalescedOperations
            statistics.contentionRetries += counters.contentionRetries
            statistics.roundTrips = connection.roundTrips
            if failure == nil {
                statistics.transactions += 1
                statistics.operations += batch.count
                statistics.largestBatch = max(statistics.largestBatch, batch.count)
                if batch.count > 1 { statistics.sharedTransactions += 1 }
            } else {
                statistics.failedBatches += 1
            }
        }
        if let syncer, let commitID {
            syncer.committed(commitID, jobs: batch, failure: failure)
        } else {
            for job in batch {
                job.finish(batchFailure: failure)
            }
        }
        connection.afterCommit(waitUntilDurable: { syncer?.waitUntilDurableBlocking() })
    }

    /// BEGIN, each operation in its savepoint, COMMIT; returns the error that sank the whole batch, if any.
    /// `commitID` is the syncer's number for the COMMIT, once one was attempted.
    ///
    /// While the syncer is still flushing the previous commit, operations that arrive meanwhile
    /// join this transaction (up to the batch limit) instead of waiting for a commit of their own:
    /// committing them separately would only rewrite the same pages into the log again before the
    /// fsync could take them anyway.
    private func runTransaction(
        _ batch: inout [any WriteJob], on connection: any SQLConnection,
        counters: inout BatchCounters, commitID: inout UInt64?
    ) -> StoreError? {
        if let broken = syncer?.failure { return broken }
        do {
            try begin(on: connection)
        } catch {
            return error
        }
        do {
            if batch.count == 1 && !(syncer?.isBusy ?? false) && !connection.holdsNextCommit {
                // A lone operation needs no savepoint: if it fails, the whole transaction rolls back.
                let context = SQLContext(connection: connection, now: clock.now())
                if !batch[0].perform(context) {
                    try connection.run("ROLLBACK")
                    return batch[0].failedOnContention ? Self.contention : nil
                }
            } else {
                try performEach(batch, on: connection, counters: &counters)
                while let more = operationsArriving(room: maxBatchSize - batch.count, on: connection) {
                    try performEach(more, on: connection, counters: &counters)
                    batch.append(contentsOf: more)
                }
                if connection.dialect == .postgres, batch.contains(where: \.failedOnContention) {
                    try connection.run("ROLLBACK")
                    return Self.contention
                }
            }
            try beforeCommit?(SQLContext(connection: connection, now: clock.now()))
            try waitForCommitHold(on: connection)
            commitID = syncer?.beginCommit()
            try commitTraced(commitID, operations: batch.count, on: connection)
            return nil
        } catch {
            try? connection.run("ROLLBACK")
            return error
        }
    }

    /// COMMIT, with the trace told when it started and ended and how many log fsyncs ran inside it.
    private func commitTraced(_ id: UInt64?, operations: Int, on connection: any SQLConnection) throws(StoreError) {
        guard let trace else { return try connection.run("COMMIT") }
        let syncsBefore = SQLiteLogBuffer.syncsOnThisThread
        trace.record(.commit, Int64(id ?? 0), Int64(operations))
        try connection.run("COMMIT")
        trace.record(.committed, Int64(id ?? 0), Int64(SQLiteLogBuffer.syncsOnThisThread - syncsBefore))
    }

    /// Runs `jobs` inside the open transaction, each in its savepoint or pipelined with its neighbours.
    private func performEach(
        _ jobs: [any WriteJob], on connection: any SQLConnection,
        counters: inout BatchCounters
    ) throws(StoreError) {
        var index = 0
        while index < jobs.count {
            let run = statementRun(in: jobs, from: index)
            if run.count > 1 {
                try runPipelined(run, on: connection, counters: &counters)
                index += run.count
            } else {
                try runInSavepoint(jobs[index], on: connection)
                index += 1
            }
        }
    }

    /// Waits, while the syncer is busy with the previous commit or the connection holds the next
    /// one, for operations to add to this transaction; nil once both are free (time to commit),
    /// the batch is full, or on close.
    private func operationsArriving(room: Int, on connection: any SQLConnection) -> [any WriteJob]? {
        guard room > 0 else { return nil }
        let mustWait = { (self.syncer?.isBusy ?? false) || connection.holdsNextCommit }
        guard syncer != nil || connection.holdsNextCommit else { return nil }
        let joined = lock.wait(until: { !queue.isEmpty || !mustWait() || isClosed }) { () -> [QueuedWrite]? in
            guard !isClosed, mustWait(), !queue.isEmpty else { return nil }
            return queue.popFirst(upTo: room)
        }
        guard let joined else { return nil }
        trace?.record(.join, Int64(joined.count))
        return joined.map(\.job)
    }

    /// Blocks while the connection holds the next COMMIT (a full batch, or one closed early,
    /// gets here without waiting in `operationsArriving`), then lets it release the hold.
    private func waitForCommitHold(on connection: any SQLConnection) throws(StoreError) {
        if connection.holdsNextCommit {
            trace?.record(.holdBegin)
            lock.wait(until: { !connection.holdsNextCommit }) {}
            trace?.record(.holdEnd)
        }
        do {
            try connection.releaseCommitHold()
        } catch {
            syncer?.markBroken(error)
            throw error
        }
    }

    /// Wakes the writer thread when it may be waiting for the syncer or a commit hold to end.
    private func wake() {
        lock.withLock { lock.broadcast() }
    }

    /// Starts the batch's transaction; a server connection found dead is re-established once,
    /// which is safe because nothing of the batch has run yet.
    private func begin(on connection: any SQLConnection) throws(StoreError) {
        let statement = connection.dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        if !connection.isHealthy { try connection.reconnect() }
        do {
            try connection.run(statement)
        } catch  where error.code == .connectionLost {
            try connection.reconnect()
            try connection.run(statement)
        }
    }

    /// The single-statement operations at `start` and right after it.
    private func statementRun(in batch: [any WriteJob], from start: Int) -> [any StatementWriteJob] {
        var run: [any StatementWriteJob] = []
        var index = start
        while index < batch.count, let job = batch[index] as? any StatementWriteJob {
            run.append(job)
            index += 1
        }
        return run
    }

    /// Sends a run of statements as one pipeline inside one savepoint, then completes each.
    /// A statement that raises an error aborts the rest of the pipeline: then the run is undone
    /// and every operation of it performed alone in its own savepoint, so only the culprit fails.
    private func runPipelined(
        _ run: [any StatementWriteJob], on connection: any SQLConnection,
        counters: inout BatchCounters
    ) throws(StoreError) {
        let now = clock.now()
        var statements = [SQLStatement("SAVEPOINT parley_pipeline")]
        var routes: [PipelineRoute] = []
        var index = 0
        while index < run.count {
            let group = coalescedGroup(in: run, from: index)
            if group.count > 1, let kind = run[index].coalescing {
                statements.append(kind.statement(for: group.map { $0.coalescedArguments() }, now: now))
                routes.append(.coalesced(first: index, count: group.count))
                counters.coalescedOperations += group.count
                index += group.count
            } else {
                statements.append(run[index].statement(at: now))
                routes.append(.single(index))
                index += 1
            }
        }
        statements.append(SQLStatement("RELEASE SAVEPOINT parley_pipeline"))
        do {
            try connection.pipeline(statements) { index, row in
                guard index >= 1 && index <= routes.count else { return }
                switch routes[index - 1] {
                case .single(let job):
                    run[job].receive(row)
                case .coalesced(let first, let count):
                    let position = Int(row.int64(0))
                    if position >= 1 && position <= count { run[first + position - 1].receive(ShiftedRow(base: row, offset: 1)) }
                }
            }
        } catch  where error.code != .connectionLost {
            try connection.run("ROLLBACK TO SAVEPOINT parley_pipeline")
            try connection.run("RELEASE SAVEPOINT parley_pipeline")
            counters.pipelineRetries += 1
            for job in run { try runInSavepoint(job, on: connection) }
            return
        }
        counters.pipelinedOperations += run.count
        let context = SQLContext(connection: connection, now: now)
        for job in run { _ = job.complete(context) }
    }

    /// The jobs at `start` and right after it that share its coalesced statement (just the one job when it has none).
    private func coalescedGroup(in run: [any StatementWriteJob], from start: Int) -> ArraySlice<any StatementWriteJob> {
        guard let kind = run[start].coalescing else { return run[start..<start + 1] }
        var end = start + 1
        while end < run.count, run[end].coalescing == kind { end += 1 }
        return run[start..<end]
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

/// A queued operation and when it was queued (on the trace's clock; 0 when not tracing).
private struct QueuedWrite {
    let job: any WriteJob
    let enqueuedAt: UInt64
}

/// Which jobs a pipelined statement answers for.
private enum PipelineRoute {
    /// One job's own statement.
    case single(Int)
    /// A coalesced statement for `count` jobs from `first` on; its rows name their job by position.
    case coalesced(first: Int, count: Int)
}

/// What one batch added to the writer's pipeline counters.
private struct BatchCounters {
    var pipelinedOperations = 0
    var pipelineRetries = 0
    var coalescedOperations = 0
    var contentionRetries = 0
}
