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
/// the benchmark host), so it waits for a third segment: at most one full merge per two
/// flushes, and at rest the index is in at most two segments.
final class SearchIndexMerger: WriterIdleWork {
    /// Leaf pages (about 4 KB each) a step writes unless told otherwise: 2–4 ms of work, the
    /// longest a write arriving during idle merging waits for the writer.
    static let defaultPagesPerStep = 16
    /// Segments from which on a due merger merges them all into one.
    static let segmentsWorthMerging = 3

    /// Leaf pages a step writes.
    let pagesPerStep: Int

    private struct State {
        var due = true
        var merging = false
    }

    private let state = Mutex(State())

    init(pagesPerStep: Int = SearchIndexMerger.defaultPagesPerStep) {
        self.pagesPerStep = max(1, pagesPerStep)
    }

    /// Called after a flush wrote a segment.
    func noteFlushed() {
        state.withLock { $0.due = true }
    }

    var isDue: Bool { state.withLock { $0.due } }

    func step(_ context: SQLContext) throws(StoreError) -> Bool {
        let starting = !state.withLock { $0.merging }
        if starting {
            guard try Schema.searchIndexStructure(context).segments >= Self.segmentsWorthMerging else {
                pause()
                return false
            }
            state.withLock { $0.merging = true }
        }
        guard try Schema.mergeSearchIndex(context, pages: pagesPerStep, acrossLevels: starting) else {
            pause()
            return false
        }
        return true
    }

    func pause() {
        state.withLock {
            $0.due = false
            $0.merging = false
        }
    }
}
