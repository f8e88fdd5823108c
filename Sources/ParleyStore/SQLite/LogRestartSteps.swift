/// The order of the steps by which the SQLite writer lets its log start over without an fsync on
/// its own thread — a value, so the steps are tested without a database (`SQLiteConnection` runs them).
///
/// 1. In the WAL hook of a commit: past the threshold, the background checkpoint is asked for a
///    pass, or, once it left only a few frames, the copy of the rest is due.
/// 2. After that commit was handed to the syncer: the writer waits until it is durable (so the
///    copy needs no fsync of the log) and copies the rest with SQLite's fsyncs off.
/// 3. If the copy reached the log's end, the next COMMIT starts the log over, which may happen only
///    once the database file is durable: its fsync runs on the checkpointer's thread, and the
///    COMMIT (not the operations before it) waits for it.
/// 4. A failed fsync of the file leaves the log unable to start over safely: no commit succeeds
///    until the server restarts.
struct LogRestartSteps: Equatable {
    /// Where the writer stands.
    enum Phase: Equatable {
        /// Commits append to the log.
        case appending
        /// The background checkpoint left only a few frames: copy them after this commit.
        case copyDue
        /// The copy reached the log's end; the database file's fsync runs elsewhere, and the
        /// next COMMIT waits for it.
        case awaitingFileSync
        /// That fsync failed: nothing may commit.
        case blocked
    }

    /// What the WAL hook does about the log's length.
    enum GrowthAction: Equatable {
        /// Nothing yet.
        case none
        /// Ask the background checkpoint for a pass.
        case requestPass
        /// The log reached its limit: checkpoint now, inside this COMMIT.
        case checkpointAtLimit
    }

    /// What the writer does right before COMMIT.
    enum Release: Equatable {
        /// Commit.
        case commit
        /// The checkpointer's thread did not run the fsync: run it here, then report it (`syncedHere`).
        case syncHere
        /// Refuse the commit (the database file could not be made durable).
        case refuse
    }

    private(set) var phase = Phase.appending

    /// In the WAL hook of a commit that left `frames` in the log; `progress` is the background
    /// checkpoint's against that length.
    mutating func logGrew(frames: Int, threshold: Int, limit: Int, progress: WALCheckpointer.Progress) -> GrowthAction {
        if frames >= limit { return .checkpointAtLimit }
        guard frames >= threshold, phase == .appending else { return .none }
        switch progress {
        case .running: return .none
        case .caughtUp:
            phase = .copyDue
            return .none
        case .behind: return .requestPass
        }
    }

    /// After the commit was handed on: whether to copy the rest of the log now.
    mutating func takeCopyDue() -> Bool {
        guard phase == .copyDue else { return false }
        phase = .appending
        return true
    }

    /// The copy ended; `reachedEnd` when SQLite copied every frame of the log. Returns whether to
    /// ask for the database file's fsync (the next COMMIT then waits for it).
    mutating func copied(reachedEnd: Bool) -> Bool {
        guard phase == .appending, reachedEnd else { return false }
        phase = .awaitingFileSync
        return true
    }

    /// Whether the next COMMIT must wait, given where the requested fsync stands.
    func holdsCommit(_ fileSync: WALCheckpointer.FileSync) -> Bool {
        phase == .awaitingFileSync && fileSync == .pending
    }

    /// Right before COMMIT, with the requested fsync's outcome.
    mutating func release(_ outcome: WALCheckpointer.FileSync) -> Release {
        switch phase {
        case .blocked: return .refuse
        case .appending, .copyDue: return .commit
        case .awaitingFileSync:
            switch outcome {
            case .ended(let status) where status != 0:
                phase = .blocked
                return .refuse
            case .ended:
                phase = .appending
                return .commit
            case .idle, .notRun, .pending:
                // Not known to have run: syncing once more here is always safe.
                return .syncHere
            }
        }
    }

    /// The fsync the writer ran itself (after `.syncHere`) ended: whether to commit.
    mutating func syncedHere(succeeded: Bool) -> Bool {
        guard phase == .awaitingFileSync else { return phase != .blocked }
        phase = succeeded ? .appending : .blocked
        return succeeded
    }

    /// The connection could not be put back to synced commits: nothing may commit.
    mutating func block() {
        phase = .blocked
    }
}
