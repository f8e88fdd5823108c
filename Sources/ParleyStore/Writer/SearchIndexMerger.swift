import Synchronization

/// SQLite's writer's idle work: merges the search index's segments while no write is queued, so
/// searches look words up in one or two segments instead of the 10–20 that batched writes leave.
///
/// It becomes due when the store opens and after every flush of the search queue (the flush
/// wrote a segment). A due merger first reads the segment count: below
/// ``segmentsWorthMerging`` it stops there; otherwise it runs FTS5 merge steps of
/// `pagesPerStep` leaf pages (``Schema/mergeSearchIndex(_:pages:acrossLevels:)``) until one finds
/// nothing left, which leaves a single segment: the first step starts a merge of every segment,
/// the next ones only carry it on, so segments that flushes add meanwhile wait for the next
/// merge instead of making this one start over. Merging all of them, not level by level,
/// rewrites the whole index each time (about 1.7 s of CPU and 78 MB for 1,000,000 messages on
/// the benchmark host), so it waits for a third segment, and after each full merge it rests for
/// ``defaultRestFactor`` times what the merge's steps took: flushes during the rest do not make
/// it due, so under a steady stream of writes merging takes at most about a tenth of the
/// writer's time. When the rest ends it is due again by itself (``dueAt`` tells the writer when),
/// so at rest the index is in at most two segments even if no write comes.
final class SearchIndexMerger: WriterIdleWork {
    /// Leaf pages (about 4 KB each) a step writes unless told otherwise: 2–4 ms of work, the
    /// longest a write arriving during idle merging waits for the writer.
    static let defaultPagesPerStep = 16
    /// Segments from which on a due merger merges them all into one.
    static let segmentsWorthMerging = 3
    /// Rest after a full merge, in multiples of the time its steps took. A full merge rewrites
    /// the whole index, so a writer idle between sends would otherwise merge after every second
    /// flush (about a sixth of a core and 15 MB/s of writes at 200 messages a second and 1,000,000
    /// stored); resting 9 times as long caps merging at a tenth of the writer's time.
    static let defaultRestFactor = 9

    /// Leaf pages a step writes.
    let pagesPerStep: Int
    /// Rest after a full merge, in multiples of its steps' time.
    let restFactor: Int
    /// The monotonic clock the steps are timed by (a fake one in tests).
    private let now: @Sendable () -> ContinuousClock.Instant

    private struct State {
        var due = true
        var merging = false
        /// Time the steps of the merge under way took so far.
        var mergeTime = Duration.zero
        /// End of the rest after the last full merge; not due before it.
        var restsUntil: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    init(
        pagesPerStep: Int = SearchIndexMerger.defaultPagesPerStep, restFactor: Int = SearchIndexMerger.defaultRestFactor,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.pagesPerStep = max(1, pagesPerStep)
        self.restFactor = max(0, restFactor)
        self.now = now
    }

    /// Called after a flush wrote a segment.
    func noteFlushed() {
        state.withLock { $0.due = true }
    }

    var isDue: Bool {
        let instant = now()
        return state.withLock { state in state.due && state.restsUntil.map { instant >= $0 } ?? true }
    }

    /// The end of the rest when the merger is due after it, nil when it is due now or only a
    /// flush can make it due.
    var dueAt: ContinuousClock.Instant? {
        let instant = now()
        return state.withLock { state in
            guard state.due, let end = state.restsUntil, instant < end else { return nil }
            return end
        }
    }

    func step(_ context: SQLContext) throws(StoreError) -> Bool {
        let started = now()
        let starting = !state.withLock { $0.merging }
        if starting {
            guard try Schema.searchIndexStructure(context).segments >= Self.segmentsWorthMerging else {
                pause()
                return false
            }
            state.withLock {
                $0.merging = true
                $0.mergeTime = .zero
                $0.restsUntil = nil
            }
        }
        let merged = try Schema.mergeSearchIndex(context, pages: pagesPerStep, acrossLevels: starting)
        let ended = now()
        state.withLock { $0.mergeTime += ended - started }
        if !merged { rest(from: ended) }
        return merged
    }

    func pause() {
        state.withLock {
            $0.due = false
            $0.merging = false
        }
    }

    /// Ends a full merge: not due until `restFactor` times its steps' time after `end`, then due
    /// again whatever the flushes did meanwhile (segments they wrote during the merge are left).
    private func rest(from end: ContinuousClock.Instant) {
        state.withLock {
            $0.merging = false
            $0.due = true
            $0.restsUntil = end + $0.mergeTime * restFactor
        }
    }
}
