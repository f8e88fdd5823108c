import Synchronization
import Testing

@testable import ParleyStore

/// SQLite's idle merge of the search index (``SearchIndexMerger``): flushes leave the index in
/// many segments, the writer merges them while nothing is queued, in steps bounded by a page
/// budget that a write arriving meanwhile waits for at most one of, and a close in the middle
/// leaves a consistent index.
@Suite struct SearchIndexMergeTests {
    private static let messages = 48

    /// Message `index`: a word of its own, a word all share, and `fill` more words of its own
    /// (so the index spans many leaf pages).
    private static func text(_ index: Int, fill: Int) -> String {
        (["marker\(index)", "shared"] + (0..<fill).map { "w\(index)x\($0)" }).joined(separator: " ")
    }

    private func open(_ database: TestDatabase, merging: Bool, pagesPerStep: Int = 1) async throws -> SQLChatStore {
        var configuration = database.configuration(searchIndexBatch: 1)
        configuration.searchIndexMergesWhenIdle = merging
        configuration.searchIndexMergePagesPerStep = pagesPerStep
        return try await SQLChatStore.open(configuration)
    }

    /// A store whose index holds `messages` messages flushed one commit each (so in many
    /// segments), written with the idle merge off; returns the room.
    private func seed(_ database: TestDatabase, fill: Int) async throws -> String {
        let store = try await open(database, merging: false)
        try await store.makeUser("a", "alice")
        let room = try await store.makeRoom("a", creator: "alice")
        for index in 0..<Self.messages { _ = try await store.send("a", room.id, from: "alice", Self.text(index, fill: fill)) }
        let segments = try await store.searchIndexSegments() ?? 0
        await store.close()
        #expect(segments > 2, "the flushes left \(segments) segments: nothing to merge")
        return room.id
    }

    /// Every message is found by its own word, and the shared word finds them all.
    private func expectEveryMessageFound(_ store: SQLChatStore, _ comment: Comment) async throws {
        for index in stride(from: 0, to: Self.messages, by: 7) {
            let page = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["marker\(index)"], limit: 50))
            #expect(page.hits.count == 1, comment)
        }
        let all = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["shared"], limit: 50))
        #expect(all.hits.count == Self.messages, comment)
    }

    private func integrityCheck(_ store: SQLChatStore) async throws {
        _ = try await store.database.write { context in try SearchIndexSQLiteTests.integrityCheck(context) }
    }

    /// Polls `condition` until it holds (true) or `seconds` passed (false).
    private func within(seconds: Int, _ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<(seconds * 100) {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Polls until the index is in at most `segments` segments (false after about 20 s).
    private func waitForSegments(atMost segments: Int, _ store: SQLChatStore) async throws -> Bool {
        for _ in 0..<2_000 {
            if try await store.searchIndexSegments() ?? .max <= segments { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func manyFlushesEndInAtMostTwoSegmentsOnceTheWriterIsIdle() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        let store = try await open(database, merging: true, pagesPerStep: SearchIndexMerger.defaultPagesPerStep)
        try await store.makeUser("a", "alice")
        let room = try await store.makeRoom("a", creator: "alice")
        for index in 0..<Self.messages { _ = try await store.send("a", room.id, from: "alice", Self.text(index, fill: 3)) }
        let settled = try await waitForSegments(atMost: 2, store)
        let segments = try await store.searchIndexSegments() ?? -1
        #expect(settled, "still \(segments) segments after \(Self.messages) flushes and an idle wait")
        #expect(store.writerStatistics.idleSteps > 0)
        try await expectEveryMessageFound(store, "after merging")
        try await integrityCheck(store)
        await store.close()
    }

    /// The test drives the merge step by step (the writer's own idle merge is off, so nothing
    /// else touches the index) and searches after every step that left the index in an
    /// intermediate state: a merge under way and more than one segment.
    @Test func searchesStayCorrectWhileTheIndexIsMergedAndAfter() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        _ = try await seed(database, fill: 80)
        let store = try await open(database, merging: false)
        try await expectEveryMessageFound(store, "before the merge")
        let merger = SearchIndexMerger(pagesPerStep: 1)
        var steps = 0
        var searchesMidMerge = 0
        while try await store.database.write({ context in try merger.step(context) }) {
            steps += 1
            let segments = try await store.searchIndexSegments() ?? 0
            guard segments > 1 else { continue }
            try await expectEveryMessageFound(store, "after merge step \(steps), \(segments) segments")
            if searchesMidMerge == 0 { try await integrityCheck(store) }
            searchesMidMerge += 1
        }
        #expect(searchesMidMerge >= 1, "no search while the merge was under way (\(steps) steps)")
        #expect(steps >= 3, "one page per step: many steps, not \(steps)")
        #expect(try await store.searchIndexSegments() == 1, "the merge ends in one segment")
        try await expectEveryMessageFound(store, "after the merge")
        try await integrityCheck(store)
        await store.close()
    }

    /// A step writes about its page budget and stops: with a budget of one page the merge of a
    /// many-page index is still under way after it, so a write arriving waits for that much work.
    @Test func aStepMergesOnlyItsPageBudget() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        _ = try await seed(database, fill: 80)
        let store = try await open(database, merging: false)
        let small = SearchIndexMerger(pagesPerStep: 1)
        let (worked, after) = try await store.database.write { context in
            let worked = try small.step(context)
            return (worked, try Schema.searchIndexStructure(context).segments)
        }
        #expect(worked && small.isDue)
        #expect(after > 1, "one page of merging finished the whole merge")
        // The fake clock moves only during the steps: the rest after the merge (9 times the steps'
        // time) cannot run out before the check however long the host takes to get there.
        let clock = FakeClock()
        let large = SearchIndexMerger(pagesPerStep: 100_000, now: clock.read)
        clock.tick = .seconds(1)
        var steps = 0
        while try await store.database.write({ context in try large.step(context) }) { steps += 1 }
        clock.tick = .zero
        #expect(steps >= 1 && !large.isDue)
        #expect(try await store.searchIndexSegments() == 1)
        try await integrityCheck(store)
        await store.close()
    }

    /// The writer looks at its queue after every idle step: a write queued during a step runs
    /// right after it, before the next.
    @Test func aWriteQueuedDuringAnIdleStepWaitsForThatStepOnly() async throws {
        let scratch = try ScratchDatabase("idle")
        defer { scratch.remove() }
        let idle = CountingIdleWork(steps: 5)
        let path = scratch.path
        let writer = try await GroupCommitWriter.start(
            name: "test-writer", maxBatchSize: 64, clock: .system, idleWork: idle,
            open: { try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: false)) },
            prepare: { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)") })
        try await eventually { idle.gate.hasEntered }
        let write = Task {
            try await writer.submit { context in
                try context.execute("INSERT INTO t (id) VALUES (1)")
                return idle.started
            }
        }
        try await eventually { writer.currentStatistics.queued == 1 }
        idle.gate.open()
        let stepsBeforeTheWrite = try await write.value
        #expect(stepsBeforeTheWrite == 1, "the write waited for \(stepsBeforeTheWrite) steps")
        #expect(try await within(seconds: 20) { writer.currentStatistics.idleSteps == 5 })
        await writer.close()
    }

    /// Closing the writer in the middle of a merge stops it after the step under way: each step
    /// is a transaction, so the index left behind is consistent and complete, and the merge goes
    /// on at a later flush.
    @Test func closingWhileMergingLeavesAConsistentIndex() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        let room = try await seed(database, fill: 80)
        guard case .sqlite(let path) = database.location else { return }
        let merging = GatedIdleWork(SearchIndexMerger(pagesPerStep: 1), blockingAt: 2)
        let writer = try await GroupCommitWriter.start(
            name: "test-writer", maxBatchSize: 64, clock: .system, idleWork: merging,
            open: { try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: false)) },
            prepare: { _ in })
        #expect(try await within(seconds: 20) { merging.gate.hasEntered }, "no second merge step")
        let closing = Task { await writer.close() }
        #expect(try await within(seconds: 20) { writer.isClosing })
        merging.gate.open()
        await closing.value
        #expect(merging.steps == 2, "the writer went on merging after its close")
        let store = try await open(database, merging: false)
        let segments = try await store.searchIndexSegments() ?? 0
        #expect(segments > 1, "two pages of merging merged everything: nothing was left to stop")
        try await integrityCheck(store)
        try await expectEveryMessageFound(store, "after a close mid-merge")
        _ = try await store.send("a", room, from: "alice", "shared once more")
        let all = try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: ["shared"], limit: 50))
        #expect(all.hits.count == Self.messages + 1)
        try await integrityCheck(store)
        await store.close()
    }

    /// Runs `merger`'s steps until its merge ends, the fake clock moving one second during each
    /// step, so the merge took as many seconds as it had steps; returns the end of its rest.
    private func mergeFully(
        _ merger: SearchIndexMerger, _ clock: FakeClock, _ store: SQLChatStore
    ) async throws
        -> ContinuousClock.Instant
    {
        clock.tick = .seconds(1)
        var steps = 1
        while try await store.database.write({ context in try merger.step(context) }) { steps += 1 }
        clock.tick = .zero
        #expect(try await store.searchIndexSegments() == 1)
        return clock.lastReading + .seconds(SearchIndexMerger.defaultRestFactor * steps)
    }

    /// Sends `count` messages through a store whose own merger is off: `count` more segments.
    private func flush(_ count: Int, _ store: SQLChatStore, room: String) async throws {
        for index in 0..<count { _ = try await store.send("a", room, from: "alice", Self.text(100 + index, fill: 3)) }
    }

    /// After a merge whose steps took T the merger is not due for 9 T, however many flushes come.
    @Test func aFullMergeRestsNineTimesItsStepsTimeEvenAfterFlushes() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        let room = try await seed(database, fill: 80)
        let store = try await open(database, merging: false)
        let clock = FakeClock()
        let merger = SearchIndexMerger(pagesPerStep: 8, now: clock.read)
        let restEnd = try await mergeFully(merger, clock, store)
        try await flush(3, store, room: room)
        for _ in 0..<3 { merger.noteFlushed() }
        #expect(try await store.searchIndexSegments() ?? 0 >= SearchIndexMerger.segmentsWorthMerging)
        clock.set(restEnd - .nanoseconds(1))
        #expect(!merger.isDue, "due before the rest ended")
        #expect(merger.dueAt == restEnd)
        clock.set(restEnd)
        #expect(merger.isDue && merger.dueAt == nil)
        await store.close()
    }

    /// When the rest ends the merger is due without a flush saying so, and merges the segments
    /// written meanwhile.
    @Test func afterItsRestTheMergerMergesWithoutANewWrite() async throws {
        let database = try TestEngine.sqlite.makeDatabase()
        defer { database.remove() }
        let room = try await seed(database, fill: 80)
        let store = try await open(database, merging: false)
        let clock = FakeClock()
        let merger = SearchIndexMerger(pagesPerStep: 8, now: clock.read)
        let restEnd = try await mergeFully(merger, clock, store)
        try await flush(3, store, room: room)
        clock.set(restEnd)
        #expect(merger.isDue, "not due at the end of its rest")
        var steps = 0
        while try await store.database.write({ context in try merger.step(context) }) { steps += 1 }
        #expect(steps >= 1, "the rest ended without a merge")
        #expect(try await store.searchIndexSegments() == 1)
        try await integrityCheck(store)
        await store.close()
    }

    /// An idle writer whose idle work says when it becomes due wakes then by itself: the step
    /// runs though nothing was ever submitted.
    @Test func anIdleWriterWakesWhenItsIdleWorkBecomesDue() async throws {
        let scratch = try ScratchDatabase("idle-deadline")
        defer { scratch.remove() }
        let idle = DeadlineIdleWork(dueAt: .now + .milliseconds(50))
        let path = scratch.path
        let writer = try await GroupCommitWriter.start(
            name: "test-writer", maxBatchSize: 64, clock: .system, idleWork: idle,
            open: { try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: false)) },
            prepare: { _ in })
        #expect(try await within(seconds: 20) { idle.steps == 1 }, "the writer slept past the deadline")
        #expect(writer.currentStatistics.operations == 0)
        await writer.close()
    }
}

/// A clock that moves only when told: by `tick` at each reading, or to an instant set.
private final class FakeClock: Sendable {
    private struct State {
        var now = ContinuousClock.now
        var tick = Duration.zero
        var last = ContinuousClock.now
    }

    private let state = Mutex(State())

    /// How far each reading moves the clock on.
    var tick: Duration {
        get { state.withLock { $0.tick } }
        set { state.withLock { $0.tick = newValue } }
    }

    /// The instant the latest reading returned.
    var lastReading: ContinuousClock.Instant { state.withLock { $0.last } }

    @Sendable func read() -> ContinuousClock.Instant {
        state.withLock { state in
            state.last = state.now
            state.now += state.tick
            return state.last
        }
    }

    func set(_ instant: ContinuousClock.Instant) {
        state.withLock { $0.now = instant }
    }
}

/// Idle work due once, at `dueAt` on the real clock.
private final class DeadlineIdleWork: WriterIdleWork {
    private let deadline: ContinuousClock.Instant
    private let count = Atomic(0)

    init(dueAt deadline: ContinuousClock.Instant) { self.deadline = deadline }

    /// Steps run so far.
    var steps: Int { count.load(ordering: .sequentiallyConsistent) }

    var isDue: Bool { steps == 0 && ContinuousClock.now >= deadline }

    var dueAt: ContinuousClock.Instant? { steps == 0 && ContinuousClock.now < deadline ? deadline : nil }

    func step(_ context: SQLContext) throws(StoreError) -> Bool {
        count.add(1, ordering: .sequentiallyConsistent)
        return true
    }

    func pause() {}
}

/// Real idle work whose step number `blockingAt` waits on `gate` before it runs.
private final class GatedIdleWork: WriterIdleWork {
    let gate = Gate()
    private let work: any WriterIdleWork
    private let blockingAt: Int
    private let count = Atomic(0)

    init(_ work: any WriterIdleWork, blockingAt: Int) {
        self.work = work
        self.blockingAt = blockingAt
    }

    /// Steps begun so far.
    var steps: Int { count.load(ordering: .sequentiallyConsistent) }

    var isDue: Bool { work.isDue }

    var dueAt: ContinuousClock.Instant? { work.dueAt }

    func step(_ context: SQLContext) throws(StoreError) -> Bool {
        if count.add(1, ordering: .sequentiallyConsistent).newValue == blockingAt { gate.pass() }
        return try work.step(context)
    }

    func pause() { work.pause() }
}

/// Idle work for the writer test: due for `steps` steps; the first blocks on `gate`.
private final class CountingIdleWork: WriterIdleWork {
    let gate = Gate()
    private let limit: Int
    private let count = Atomic(0)

    init(steps: Int) { limit = steps }

    /// Steps begun so far.
    var started: Int { count.load(ordering: .sequentiallyConsistent) }

    var isDue: Bool { started < limit }

    var dueAt: ContinuousClock.Instant? { nil }

    func step(_ context: SQLContext) throws(StoreError) -> Bool {
        let number = count.add(1, ordering: .sequentiallyConsistent).newValue
        if number == 1 { gate.pass() }
        return true
    }

    func pause() {}
}
