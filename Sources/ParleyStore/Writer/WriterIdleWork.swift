/// Work the writer does while no operation is queued, in bounded steps, each in a transaction of
/// its own: an operation that arrives meanwhile waits for at most the step under way.
///
/// Both methods are called on the writer thread only.
protocol WriterIdleWork: Sendable {
    /// Whether a step is due (checked whenever the writer finds its queue empty).
    var isDue: Bool { get }

    /// When the work becomes due by itself while it is not due now; nil when only the writer's
    /// own transactions can make it due. An idle writer wakes at this instant to look again.
    var dueAt: ContinuousClock.Instant? { get }

    /// Runs one step inside the open transaction; returns whether it did any work. A step that
    /// did none (or threw) ends the idle work until something makes it due again.
    func step(_ context: SQLContext) throws(StoreError) -> Bool

    /// Stops the idle work until it is due again (its transaction failed).
    func pause()
}
