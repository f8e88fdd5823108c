/// What the background checkpointer has done so far.
struct CheckpointStatistics: Sendable, Equatable {
    /// Checkpoints run by the background thread.
    var background = 0
    /// Checkpoints the writer ran itself because the log reached its limit.
    var byWriter = 0
    /// Times the writer copied the last few frames itself so the log could start over.
    var catchUps = 0
    /// Times the writer saw the log start over.
    var restarts = 0
    /// fsyncs of the database file this thread ran for the writer's catch-up (before a restart).
    var fileSyncs = 0
    /// Background checkpoints that found the checkpoint lock taken (the next request retries).
    var busy = 0
    /// Background checkpoints that failed otherwise (the connection could not open, an I/O error).
    var failures = 0
    /// Frames in the log and frames copied by the last background checkpoint.
    var lastLogFrames = 0
    var lastCopiedFrames = 0
}
