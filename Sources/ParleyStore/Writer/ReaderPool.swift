/// A few reader threads, each with its own read-only connection, sharing one queue of read operations.
///
import Synchronization

/// On SQLite in WAL mode readers never wait for the writer; each read sees the last committed state.
final class ReaderPool: @unchecked Sendable {
    // Safe to share: `queue`, `isClosed`, `running` and `stopped` are only touched while holding
    // `lock`; each connection stays on the thread that opened it.
    private typealias ReadJob = @Sendable (any SQLConnection) -> Void

    private let lock = ConditionLock()
    private var queue = JobQueue<ReadJob>()
    private var isClosed = false
    private var running = 0
    private var stopped: CheckedContinuation<Void, Never>?
    private let clock: StoreClock
    /// Counters for ``statistics`` (atomics: read by a scrape while the readers run).
    private let busy = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    private let reconnects = Atomic<Int>(0)

    private init(clock: StoreClock) {
        self.clock = clock
    }

    /// Starts `count` reader threads, each opening its connection with `open`; throws if any cannot open.
    static func start(
        name: String,
        count: Int,
        clock: StoreClock,
        open: @escaping @Sendable () throws -> any SQLConnection
    ) async throws -> ReaderPool {
        let pool = ReaderPool(clock: clock)
        do {
            for index in 0..<max(1, count) {
                try await pool.startThread(name: "\(name)\(index)", open: open)
            }
        } catch {
            await pool.close()
            throw error
        }
        return pool
    }

    private func startThread(name: String, open: @escaping @Sendable () throws -> any SQLConnection) async throws {
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            DatabaseThread.start(name: name) {
                var connection: (any SQLConnection)?
                do {
                    connection = try open()
                } catch {
                    started.resume(throwing: error)
                    return
                }
                self.lock.withLock { self.running += 1 }
                started.resume()
                let waiter = self.run(on: connection!)
                connection = nil  // closes the database before close() returns
                waiter?.resume()
            }
        }
    }

    /// Runs `operation` on one of the reader connections and returns its result.
    func submit<T: Sendable>(_ operation: @escaping @Sendable (SQLContext) throws -> T) async throws -> T {
        let clock = self.clock
        return try await withCheckedThrowingContinuation { continuation in
            let job: ReadJob = { [self] connection in
                busy.wrappingAdd(1, ordering: .relaxed)
                let result = Result {
                    if !connection.isHealthy {
                        reconnects.wrappingAdd(1, ordering: .relaxed)
                        try connection.reconnect()
                    }
                    do {
                        return try operation(SQLContext(connection: connection, now: clock.now()))
                    } catch let error as StoreError where error.code == .connectionLost {
                        // Reads change nothing, so one retry on a fresh connection is always safe.
                        reconnects.wrappingAdd(1, ordering: .relaxed)
                        try connection.reconnect()
                        return try operation(SQLContext(connection: connection, now: clock.now()))
                    }
                }
                busy.wrappingAdd(-1, ordering: .relaxed)
                if case .failure(let error) = result, Self.isDatabaseFailure(error) { failures.wrappingAdd(1, ordering: .relaxed) }
                continuation.resume(with: result)
            }
            let accepted = lock.withLock {
                guard !isClosed else { return false }
                queue.append(job)
                lock.signal()
                return true
            }
            if !accepted {
                continuation.resume(throwing: StoreError(.closed, "the store is closed"))
            }
        }
    }

    /// The pool's counters now.
    var statistics: ReaderStatistics {
        let (connections, queued) = lock.withLock { (running, queue.count) }
        return ReaderStatistics(
            connections: connections, busy: busy.load(ordering: .relaxed), queued: queued,
            failures: failures.load(ordering: .relaxed), reconnects: reconnects.load(ordering: .relaxed))
    }

    /// Whether a read's error came from the database rather than from the question asked
    /// (not found, not a member …, which are answers).
    static func isDatabaseFailure(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return true }
        switch error.code {
        case .busy, .io, .corrupt, .connectionLost, .internal: return true
        default: return false
        }
    }

    /// Stops the threads after the queued reads ran and closes their connections.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock {
                isClosed = true
                lock.broadcast()
                if running == 0 || stopped != nil { return true }
                stopped = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Serves reads until closed; returns the close() waiter to resume if this was the last thread.
    private func run(on connection: any SQLConnection) -> CheckedContinuation<Void, Never>? {
        while let job = nextJob() {
            job(connection)
        }
        return lock.withLock {
            running -= 1
            guard running == 0 else { return nil }
            return stopped
        }
    }

    private func nextJob() -> ReadJob? {
        lock.wait(until: { !queue.isEmpty || isClosed }) {
            queue.popFirst()
        }
    }
}
