import Testing
@testable import ParleyStore

/// The order of the steps that let the SQLite log start over (`LogRestartSteps`), as values.
@Suite struct LogRestartStepsTests {
    private static let threshold = 100
    private static let limit = 1_000

    private func grew(_ steps: inout LogRestartSteps, _ frames: Int, _ progress: WALCheckpointer.Progress) -> LogRestartSteps.GrowthAction {
        steps.logGrew(frames: frames, threshold: Self.threshold, limit: Self.limit, progress: progress)
    }

    @Test func belowTheThresholdNothingHappens() {
        var steps = LogRestartSteps()
        let result1 = grew(&steps, 99, .behind)
        #expect(result1 == .none)
        let result2 = steps.takeCopyDue()
        #expect(!result2)
        #expect(steps.phase == .appending)
    }

    @Test func aLogBehindItsCheckpointAsksForAPassAndARunningOneIsLeftAlone() {
        var steps = LogRestartSteps()
        let result3 = grew(&steps, 150, .behind)
        #expect(result3 == .requestPass)
        let result4 = grew(&steps, 160, .running)
        #expect(result4 == .none)
        let result5 = steps.takeCopyDue()
        #expect(!result5)
    }

    @Test func theLimitCheckpointsInsideTheCommitWhateverTheProgress() {
        var steps = LogRestartSteps()
        let result6 = grew(&steps, 1_000, .caughtUp)
        #expect(result6 == .checkpointAtLimit)
        #expect(steps.phase == .appending)
    }

    @Test func aCaughtUpLogIsCopiedOnceAfterTheCommitThenItsCommitWaitsForTheFileFsync() {
        var steps = LogRestartSteps()
        let result7 = grew(&steps, 150, .caughtUp)
        #expect(result7 == .none)
        #expect(steps.phase == .copyDue)
        let result8 = steps.takeCopyDue()
        #expect(result8)
        let result9 = steps.takeCopyDue()
        #expect(!result9)  // once
        let result10 = steps.copied(reachedEnd: true)
        #expect(result10)
        #expect(steps.phase == .awaitingFileSync)
        // While the fsync is asked for or running, the next COMMIT is held.
        #expect(steps.holdsCommit(.pending))
        #expect(!steps.holdsCommit(.ended(status: 0)))
        let result11 = steps.release(.ended(status: 0))
        #expect(result11 == .commit)
        #expect(steps.phase == .appending)
        #expect(!steps.holdsCommit(.pending))
    }

    @Test func aCopyThatStoppedShortOfTheEndHoldsNothing() {
        var steps = LogRestartSteps()
        _ = grew(&steps, 150, .caughtUp)
        _ = steps.takeCopyDue()
        let result12 = steps.copied(reachedEnd: false)
        #expect(!result12)
        #expect(steps.phase == .appending)
        #expect(!steps.holdsCommit(.pending))
        let result13 = steps.release(.idle)
        #expect(result13 == .commit)
    }

    @Test func anFsyncTheCheckpointerDidNotRunIsRunByTheWriter() {
        for outcome: WALCheckpointer.FileSync in [.notRun, .idle] {
            var steps = LogRestartSteps()
            _ = grew(&steps, 150, .caughtUp)
            _ = steps.takeCopyDue()
            _ = steps.copied(reachedEnd: true)
            #expect(!steps.holdsCommit(outcome))
            let result14 = steps.release(outcome)
            #expect(result14 == .syncHere)
            let result15 = steps.syncedHere(succeeded: true)
            #expect(result15)
            #expect(steps.phase == .appending)
        }
    }

    @Test func aFailedFileFsyncRefusesThisCommitAndEveryLaterOne() {
        var steps = LogRestartSteps()
        _ = grew(&steps, 150, .caughtUp)
        _ = steps.takeCopyDue()
        _ = steps.copied(reachedEnd: true)
        let result16 = steps.release(.ended(status: 10))
        #expect(result16 == .refuse)
        #expect(steps.phase == .blocked)
        let result17 = steps.release(.idle)
        #expect(result17 == .refuse)
        // A blocked writer starts nothing new.
        let result18 = grew(&steps, 150, .caughtUp)
        #expect(result18 == .none)
        let result19 = steps.takeCopyDue()
        #expect(!result19)

        var here = LogRestartSteps()
        _ = grew(&here, 150, .caughtUp)
        _ = here.takeCopyDue()
        _ = here.copied(reachedEnd: true)
        let result20 = here.release(.notRun)
        #expect(result20 == .syncHere)
        let result21 = here.syncedHere(succeeded: false)
        #expect(!result21)
        let result22 = here.release(.ended(status: 0))
        #expect(result22 == .refuse)
    }
}
