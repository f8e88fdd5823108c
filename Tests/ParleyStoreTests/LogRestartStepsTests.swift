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
        let growth = grew(&steps, 99, .behind)
        #expect(growth == .none)
        let copyDue = steps.takeCopyDue()
        #expect(!copyDue)
        #expect(steps.phase == .appending)
    }

    @Test func aLogBehindItsCheckpointAsksForAPassAndARunningOneIsLeftAlone() {
        var steps = LogRestartSteps()
        let growth = grew(&steps, 150, .behind)
        #expect(growth == .requestPass)
        let growth2 = grew(&steps, 160, .running)
        #expect(growth2 == .none)
        let copyDue = steps.takeCopyDue()
        #expect(!copyDue)
    }

    @Test func theLimitCheckpointsInsideTheCommitWhateverTheProgress() {
        var steps = LogRestartSteps()
        let growth = grew(&steps, 1_000, .caughtUp)
        #expect(growth == .checkpointAtLimit)
        #expect(steps.phase == .appending)
    }

    @Test func aCaughtUpLogIsCopiedOnceAfterTheCommitThenItsCommitWaitsForTheFileFsync() {
        var steps = LogRestartSteps()
        let growth = grew(&steps, 150, .caughtUp)
        #expect(growth == .none)
        #expect(steps.phase == .copyDue)
        let copyDue = steps.takeCopyDue()
        #expect(copyDue)
        let copyDue2 = steps.takeCopyDue()
        #expect(!copyDue2)  // once
        let asksForFileSync = steps.copied(reachedEnd: true)
        #expect(asksForFileSync)
        #expect(steps.phase == .awaitingFileSync)
        // While the fsync is asked for or running, the next COMMIT is held.
        #expect(steps.holdsCommit(.pending))
        #expect(!steps.holdsCommit(.ended(status: 0)))
        let release = steps.release(.ended(status: 0))
        #expect(release == .commit)
        #expect(steps.phase == .appending)
        #expect(!steps.holdsCommit(.pending))
    }

    @Test func aCopyThatStoppedShortOfTheEndHoldsNothing() {
        var steps = LogRestartSteps()
        _ = grew(&steps, 150, .caughtUp)
        _ = steps.takeCopyDue()
        let asksForFileSync = steps.copied(reachedEnd: false)
        #expect(!asksForFileSync)
        #expect(steps.phase == .appending)
        #expect(!steps.holdsCommit(.pending))
        let release = steps.release(.idle)
        #expect(release == .commit)
    }

    @Test func anFsyncTheCheckpointerDidNotRunIsRunByTheWriter() {
        for outcome: WALCheckpointer.FileSync in [.notRun, .idle] {
            var steps = LogRestartSteps()
            _ = grew(&steps, 150, .caughtUp)
            _ = steps.takeCopyDue()
            _ = steps.copied(reachedEnd: true)
            #expect(!steps.holdsCommit(outcome))
            let release = steps.release(outcome)
            #expect(release == .syncHere)
            let commits = steps.syncedHere(succeeded: true)
            #expect(commits)
            #expect(steps.phase == .appending)
        }
    }

    @Test func aFailedFileFsyncRefusesThisCommitAndEveryLaterOne() {
        var steps = LogRestartSteps()
        _ = grew(&steps, 150, .caughtUp)
        _ = steps.takeCopyDue()
        _ = steps.copied(reachedEnd: true)
        let release = steps.release(.ended(status: 10))
        #expect(release == .refuse)
        #expect(steps.phase == .blocked)
        let release2 = steps.release(.idle)
        #expect(release2 == .refuse)
        // A blocked writer starts nothing new.
        let growth = grew(&steps, 150, .caughtUp)
        #expect(growth == .none)
        let copyDue = steps.takeCopyDue()
        #expect(!copyDue)

        var here = LogRestartSteps()
        _ = grew(&here, 150, .caughtUp)
        _ = here.takeCopyDue()
        _ = here.copied(reachedEnd: true)
        let release3 = here.release(.notRun)
        #expect(release3 == .syncHere)
        let commits = here.syncedHere(succeeded: false)
        #expect(!commits)
        let release4 = here.release(.ended(status: 0))
        #expect(release4 == .refuse)
    }
}
