import CSQLite

/// Copies committed WAL frames back into an SQLite database file on its own thread and
/// connection, so the group-commit writer never stops for a long checkpoint.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that crosses its threshold: the writer
/// copies every page of the log into the database file and fsyncs that file before it can take
/// the next batch — about a fifth of its time under a steady stream of sends. Here the writer's
/// WAL hook only reports the log's length: past `threshold` frames it wakes this thread, which runs
/// a PASSIVE checkpoint (it never blocks the writer or readers; frames a reader still needs stay
/// for the next round) and fsyncs the database file. Each pass copies what the writer committed
/// during the previous one; once a pass leaves only a few frames behind (`catchUpFrames`, more
/// after every further pass), the writer copies those itself right after its next commit, and its
/// following transaction starts the log over. That copy syncs nothing on the writer's thread: the
/// writer waits until the syncer has made the log durable, copies without SQLite's fsyncs, and
/// asks this thread for the database file's fsync (`requestFileSync`), which must end before the
/// writer's next COMMIT may write the new log over the old one; meanwhile the writer already runs
/// the next batch's operations. Should the log still reach `limit` frames — a reader holding an
/// old snapshot, or a checkpoint falling behind — the writer checkpoints itself, so the file stays
/// bounded.
final class WALCheckpointer: @unchecked Sendable {
    // Safe to share: every stored `var` is only touched while holding `lock`; the checkpoint
    // connection never leaves its thread.
    private let lock = ConditionLock()
    private var requested = false
    private var fileSync = FileSync.idle
    private var fileSyncHandler: (@Sendable () -> Void)?
    private var isClosed = false
    private var hasStopped = false
    private var statistics = CheckpointStatistics()
    /// Log frames the last background checkpoint left in the database file, when it copied
    /// every frame it saw; 0 until then and after the log started over.
    private var backfilledFrames = 0
    /// Bumped when the log starts over, so a checkpoint of the old log reports nothing.
    private var logGeneration = 0
    private var isCheckpointing = false
    /// Complete background passes since the log last started over.
    private var passesOnThisLog = 0

    /// WAL frames after which the background checkpoint is started.
    let threshold: Int
    /// WAL frames after which the writer checkpoints itself.
    let limit: Int
    /// Where the writer's connection and this thread record what they do (nil: nowhere).
    let trace: StoreTrace?
    /// How the database file is fsynced (SQLite's own file handle; tests pass one they control).
    private let syncFile: @Sendable (SQLiteConnection) -> Int32

    /// Where the fsync of the database file that a log restart needs stands.
    enum FileSync: Equatable {
        /// None asked for since the last one's outcome was taken.
        case idle
        /// Asked for or running: the writer's next COMMIT must wait.
        case pending
        /// Ended with SQLite status `status` (`SQLITE_OK`: the file is durable).
        case ended(status: Int32)
        /// This thread could not run it (its connection would not open, or it stopped): the
        /// writer syncs the file itself.
        case notRun
    }

    /// Default thresholds: 65,536 frames (256 MiB with 4 KiB pages) wakes the background
    /// checkpoint; 262,144 frames (1 GiB) makes the writer do it. Under a stream of sends a
    /// larger log copies each hot page (a room's counter, an index leaf) once per checkpoint
    /// instead of once per few commits, and checkpoints' database fsyncs come less often to
    /// compete with the log's. The threshold also sets how often the log starts over, and each
    /// restart costs the sends queued at that moment about two more fsyncs (the database file's
    /// and the new log's header, which SQLite's log design requires): at 16,384 frames a log
    /// at 10,000 sends/s started over about once a second, so on a disk with 10 ms fsyncs some
    /// 5% of sends met one and the p99 was a restart's; at 65,536 it is every ~4 s, with a
    /// quarter of the background passes. (PostgreSQL's own default keeps up to 1 GB of log.)
    static let defaultThreshold = 65_536
    static let defaultLimit = 262_144
    /// The most frames the writer copies itself to let the log start over, after the first
    /// background pass (1 MiB of pages; doubled after each further pass).
    static let catchUpFrames = 256

    private init(threshold: Int, limit: Int, trace: StoreTrace?, syncFile: @escaping @Sendable (SQLiteConnection) -> Int32) {
        self.threshold = max(1, threshold)
        self.limit = max(self.threshold, limit)
        self.trace = trace
        self.syncFile = syncFile
    }

    /// Starts the checkpoint thread with its own connection to the database at `path`.
    static func start(
        path: String, threshold: Int = defaultThreshold, limit: Int = defaultLimit,
        trace: StoreTrace? = nil,
        syncFile: @escaping @Sendable (SQLiteConnection) -> Int32 = { $0.syncDatabaseFile() }
    ) -> WALCheckpointer {
        let checkpointer = WALCheckpointer(threshold: threshold, limit: limit, trace: trace, syncFile: syncFile)
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

    /// Asks this thread to fsync the database file, ahead of any checkpoint pass; returns at once.
    /// `fileSyncState` is `pending` until it ended, when the handler set with `setFileSyncHandler` is called.
    func requestFileSync() {
        lock.withLock {
            fileSync = hasStopped ? .notRun : .pending
            lock.broadcast()
        }
    }

    /// Where the requested fsync of the database file stands.
    var fileSyncState: FileSync {
        lock.withLock { fileSync }
    }

    /// Takes the outcome of an ended fsync of the database file (the state returns to `idle`).
    func takeFileSyncOutcome() -> FileSync {
        lock.withLock {
            let outcome = fileSync
            if outcome != .pending { fileSync = .idle }
            return outcome
        }
    }

    /// Sets what to call (outside the lock) when a requested fsync of the database file ended.
    func setFileSyncHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock { fileSyncHandler = handler }
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

    /// Where the background checkpoint stands against a log `frames` long.
    enum Progress {
        /// A checkpoint is asked for or running: nothing to do until it ends.
        case running
        /// Idle, and all but at most the slack is in the database file: the writer copies the rest.
        case caughtUp
        /// Idle and further behind: another background checkpoint is due.
        case behind
    }

    /// Where the background checkpoint stands against a log `frames` long, `slack` being the
    /// most frames the writer would copy itself.
    func progress(towards frames: Int, within slack: Int) -> Progress {
        lock.withLock {
            if requested || isCheckpointing { return .running }
            // Each pass copies what arrived during the previous one; the slack doubles with every
            // pass so a writer faster than the copies still gets its turn after a few.
            let allowed = slack << min(max(passesOnThisLog - 1, 0), 6)
            return backfilledFrames > 0 && frames - backfilledFrames <= allowed ? .caughtUp : .behind
        }
    }

    /// Records the writer's attempt to copy the last frames itself. Whatever came of it, the
    /// next step is the background's again: if a reader kept the log from starting over, the
    /// writer should not try again at every commit.
    func recordWriterCatchUp(succeeded: Bool) {
        lock.withLock {
            if succeeded { statistics.catchUps += 1 }
            backfilledFrames = 0
        }
    }

    /// Forgets the progress made on the previous log (called by the writer when it sees it restart).
    func logStartedOver() {
        lock.withLock {
            backfilledFrames = 0
            passesOnThisLog = 0
            logGeneration += 1
            statistics.restarts += 1
        }
    }

    private func run(path: String) {
        var connection: SQLiteConnection?
        while let work = nextWork() {
            if connection == nil {
                connection = try? SQLiteConnection(path: path, role: .checkpointer)
            }
            guard case .pass(let generation) = work else {
                runFileSync(on: connection)
                continue
            }
            trace?.record(.passBegin, Int64(generation))
            let result = connection.map(checkpointAndSync)
            trace?.record(.passEnd, Int64(result?.status ?? -1))
            lock.withLock {
                switch result?.status {
                case SQLITE_OK:
                    statistics.background += 1
                    statistics.lastLogFrames = result!.logFrames
                    statistics.lastCopiedFrames = result!.copiedFrames
                    let complete = result!.copiedFrames == result!.logFrames
                    if generation == logGeneration && complete {
                        backfilledFrames = result!.logFrames
                        passesOnThisLog += 1
                    }
                case SQLITE_BUSY, SQLITE_LOCKED:
                    statistics.busy += 1
                default:
                    statistics.failures += 1
                }
                isCheckpointing = false
            }
        }
        connection = nil
        let handler = lock.withLock { () -> (@Sendable () -> Void)? in
            hasStopped = true
            lock.broadcast()
            guard fileSync == .pending else { return nil }
            fileSync = .notRun
            return fileSyncHandler
        }
        handler?()
    }

    /// The fsync of the database file a log restart waits for.
    private func runFileSync(on connection: SQLiteConnection?) {
        trace?.record(.fileSyncBegin, 0)
        let status = connection.map(syncFile)
        trace?.record(.fileSyncEnd, Int64(status ?? -1))
        let handler = lock.withLock { () -> (@Sendable () -> Void)? in
            fileSync = status.map { .ended(status: $0) } ?? .notRun
            if status == SQLITE_OK { statistics.fileSyncs += 1 }
            return fileSyncHandler
        }
        handler?()
    }

    /// A PASSIVE checkpoint, then an fsync of the database file if it copied anything.
    ///
    /// SQLite syncs the database file only when a checkpoint reaches the end of the log; under a
    /// stream of commits a background pass never does, so without this every page it copied
    /// would still be waiting for the fsync of the writer's catch-up — on the writer's time.
    private func checkpointAndSync(_ connection: SQLiteConnection) -> (status: Int32, logFrames: Int, copiedFrames: Int) {
        var result = connection.checkpointPassively()
        trace?.record(.passCopied, Int64(result.logFrames), Int64(result.copiedFrames))
        if result.status == SQLITE_OK && result.copiedFrames > 0 {
            result.status = connection.syncDatabaseFile()
        }
        return result
    }

    /// What this thread does next.
    private enum Work {
        /// A checkpoint pass on the log of this generation.
        case pass(generation: Int)
        /// The fsync of the database file the writer waits for.
        case fileSync
    }

    /// Blocks until a file sync (first: the writer waits for it) or a checkpoint is requested;
    /// nil once the checkpointer is closed.
    private func nextWork() -> Work? {
        lock.wait(until: { requested || fileSync == .pending || isClosed }) {
            if fileSync == .pending { return .fileSync }
            guard !isClosed else { return nil }
            requested = false
            isCheckpointing = true
            return .pass(generation: logGeneration)
        }
    }
}
