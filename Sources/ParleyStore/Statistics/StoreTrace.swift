import ParleyPlatform
import ParleySystem

/// An opt-in timeline of the SQLite store's machinery — the writer's batches and commits, the log
/// syncer's fsyncs, checkpoints (background and the writer's own) and log restarts — for finding
/// what holds acknowledgements back on a slow disk.
///
/// Off unless `PARLEY_STORE_TRACE` names a file; then every event is one line
/// `<CLOCK_MONOTONIC ns> <event> <a> <b>` appended to it (`Benchmarks/store_trace.py` reads it).
/// Recording takes a lock and appends to an array; a thread of its own writes the lines out
/// every 200 ms, so the traced threads never wait for the file. Tests keep the events in memory.
final class StoreTrace: @unchecked Sendable {
    // Safe to share: `pending`, `kept` and `isClosed` are only touched while holding `lock`;
    // `file` is set once in init, then used and closed only by the flusher thread.
    private let lock = ConditionLock()
    private var pending: [Event] = []
    private var kept: [Event]?
    private var isClosed = false
    private var file: FileDescriptor?

    /// The variable naming the trace file.
    static let environmentVariable = "PARLEY_STORE_TRACE"

    /// What happened. The meaning of `a` and `b` is given per case.
    enum Kind: String, Sendable, CaseIterable {
        /// The writer took a batch off its queue: `a` operations, the oldest queued at `b` (ns).
        case take
        /// Operations that arrived during the syncer's fsync joined the open transaction: `a` of them.
        case join
        /// The writer starts COMMIT of commit `a` carrying `b` operations.
        case commit
        /// COMMIT of commit `a` returned; `b` fsyncs of the log ran on the writer's thread inside it.
        case committed
        /// The syncer starts an fsync of the log covering commits up to `a` (`b` commits).
        case syncBegin = "sync-begin"
        /// That fsync returned (`b` 1) or failed (`b` 0).
        case syncEnd = "sync-end"
        /// The callers of commits up to `a` were answered (`b` operations).
        case answered
        /// The log started over; it had `a` frames.
        case restart
        /// The writer starts copying the last `a` frames itself so the log can start over.
        case catchUpBegin = "catchup-begin"
        /// Everything the writer committed is durable: its copy starts.
        case catchUpDurable = "catchup-durable"
        /// The writer's copy ended with SQLite status `a`, the log backfilled to frame `b`.
        case catchUpEnd = "catchup-end"
        /// The log reached the writer's limit with `a` frames: it checkpoints inside COMMIT.
        case limitBegin = "limit-begin"
        /// The writer's limit checkpoint ended with SQLite status `a`.
        case limitEnd = "limit-end"
        /// A background checkpoint pass starts.
        case passBegin = "pass-begin"
        /// The pass copied `b` of the log's `a` frames (its fsync of the database file follows).
        case passCopied = "pass-copied"
        /// The pass ended with SQLite status `a`.
        case passEnd = "pass-end"
        /// The database file's fsync for the log's restart starts (`a`: 0 background thread, 1 writer).
        case fileSyncBegin = "file-sync-begin"
        /// That fsync ended with SQLite status `a`.
        case fileSyncEnd = "file-sync-end"
        /// The writer's COMMIT waits for the database file's fsync before the log may start over.
        case holdBegin = "hold-begin"
        /// The wait ended.
        case holdEnd = "hold-end"
    }

    /// One recorded event.
    struct Event: Sendable, Equatable {
        /// CLOCK_MONOTONIC, nanoseconds.
        var at: UInt64
        var kind: Kind
        var a: Int64
        var b: Int64
    }

    private init(file: consuming FileDescriptor?, keepsEvents: Bool) {
        self.file = consume file
        kept = keepsEvents ? [] : nil
    }

    /// The trace the environment asks for: nil unless `PARLEY_STORE_TRACE` names a file that
    /// can be opened for appending.
    static func fromEnvironment() -> StoreTrace? {
        guard let raw = getenv(environmentVariable) else { return nil }
        let path = String(cString: raw)
        guard !path.isEmpty else { return nil }
        guard let file = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, permissions: 0o644) else {
            return nil
        }
        let trace = StoreTrace(file: file, keepsEvents: false)
        DatabaseThread.start(name: "parley-trace") { trace.runFlusher() }
        return trace
    }

    /// A trace that keeps every event in memory (`events`), for tests.
    static func inMemory() -> StoreTrace {
        StoreTrace(file: nil, keepsEvents: true)
    }

    /// The current monotonic time in nanoseconds, the clock of every event.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Records `kind` now.
    func record(_ kind: Kind, _ a: Int64 = 0, _ b: Int64 = 0) {
        let event = Event(at: Self.now(), kind: kind, a: a, b: b)
        lock.withLock {
            if kept != nil { kept!.append(event) } else { pending.append(event) }
        }
    }

    /// Every event so far (in-memory traces only).
    var events: [Event] {
        lock.withLock { kept ?? [] }
    }

    /// Writes out what is recorded and stops the flusher thread (later events are dropped).
    func close() {
        lock.withLock {
            isClosed = true
            lock.broadcast()
        }
    }

    private func runFlusher() {
        while true {
            usleep(200_000)
            let (batch, closing) = lock.withLock { () -> ([Event], Bool) in
                defer { pending.removeAll(keepingCapacity: true) }
                return (pending, isClosed)
            }
            writeLines(batch)
            if closing { break }
        }
        try? file.take()?.close()
    }

    private func writeLines(_ batch: [Event]) {
        guard !batch.isEmpty else { return }
        var text = ""
        text.reserveCapacity(batch.count * 40)
        for event in batch {
            text += "\(event.at) \(event.kind.rawValue) \(event.a) \(event.b)\n"
        }
        // A failed write drops the batch: the trace is a diagnostic, never worth stopping for.
        try? file?.writeAll(Array(text.utf8))
    }
}
