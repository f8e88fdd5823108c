import CSQLite

/// Copies committed WAL frames back into an SQLite database file on its own thread and
/// connection, so the group-commit writer never stops for a checkpoint.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that crosses its threshold: the writer
/// copies every page of the log into the database file and fsyncs that file before it can take
/// the next batch — about a fifth of its time under a steady stream of sends. Here the writer's
/// WAL hook only reports the log's length: past `threshold` frames it wakes this thread, which runs
/// a PASSIVE checkpoint (it never blocks the writer or readers; frames a reader still needs stay
/// for the next round). Should the log still reach `limit` frames — a reader holding an old
/// snapshot, or a checkpoint falling behind — the writer checkpoints itself, so the file stays bounded.
final class WALCheckpointer: @unchecked Sendable {
    // Safe to share: `requested`, `isClosed`, `hasStopped`, `stopped` and `statistics` are only
    // touched while holding `lock`; the checkpoint connection never leaves its thread.
    private let lock = ConditionLock()
    private var requested = false
    private var isClosed = false
    private var hasStopped = false
    private var statistics = CheckpointStatistics()

    /// WAL frames after which the background checkpoint is started.
    let threshold: Int
    /// WAL frames after which the writer checkpoints itself.
    let limit: Int

    /// Default thresholds: 16,384 frames (64 MiB with 4 KiB pages) wakes the background
    /// checkpoint; 65,536 frames (256 MiB) makes the writer do it. Under a stream of sends a
    /// larger log copies each hot page (a room's counter, an index leaf) once per checkpoint
    /// instead of once per few commits, and checkpoints' database fsyncs come less often to
    /// compete with the log's; in runs at 10,000 sends/s, 16,384 gave the lowest p99 of 1,000,
    /// 4,096 and 16,384.
    static let defaultThreshold = 16_384
    static let defaultLimit = 65_536

    private init(threshold: Int, limit: Int) {
        self.threshold = max(1, threshold)
        self.limit = max(self.threshold, limit)
    }

    /// Starts the checkpoint thread with its own connection to the database at `path`.
    static func start(path: String, threshold: Int = defaultThreshold, limit: Int = defaultLimit) -> WALCheckpointer {
        let checkpointer = WALCheckpointer(threshold: threshold, limit: limit)
        DatabaseThread.start(name: "parley-checkpoint") {
            checkpointer.run(path: path)
        }
        return checkpointer
    }

    /// Asks for a checkpoint soon; returns at once (called from the writer's WAL hook).
    func request() {
        lock.withLock {
            guard !requested else { return }
            requested = true
            lock.signal()
        }
    }

    /// Stops the thread after a checkpoint in progress; the connection closes on the way out.
    func close() {
        lock.withLock {
            isClosed = true
            lock.broadcast()
        }
    }

    /// Counters of completed checkpoints (for tests and diagnostics).
    var currentStatistics: CheckpointStatistics {
        lock.withLock { statistics }
    }

    /// Records a checkpoint the writer ran itself because the log reached `limit`.
    func recordWriterCheckpoint() {
        lock.withLock { statistics.byWriter += 1 }
    }

    private func run(path: String) {
        var connection: SQLiteConnection?
        while waitForRequest() {
            if connection == nil {
                connection = try? SQLiteConnection(path: path, role: .checkpointer)
            }
            let result = connection?.checkpointPassively()
            lock.withLock {
                switch result?.status {
                case SQLITE_OK:
                    statistics.background += 1
                    statistics.lastLogFrames = result!.logFrames
                    statistics.lastCopiedFrames = result!.copiedFrames
                case SQLITE_BUSY, SQLITE_LOCKED:
                    statistics.busy += 1
                default:
                    statistics.failures += 1
                }
            }
        }
        connection = nil
        lock.withLock {
            hasStopped = true
            lock.broadcast()
        }
    }

    /// Blocks until a checkpoint is requested (true) or the checkpointer is closed (false).
    private func waitForRequest() -> Bool {
        lock.wait(until: { requested || isClosed }) {
            guard !isClosed else { return false }
            requested = false
            return true
        }
    }
}
