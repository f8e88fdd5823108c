import ParleyKit
import Synchronization

/// A clock that moves only when told to: sleepers wake when ``advance(by:)`` passes their
/// deadline. For tests of time-driven behaviour without real waiting.
public final class ManualClock: ParleyClock {
    private struct Sleeper {
        let id: Int
        let deadline: Int64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Int64
        var nextID = 0
        var sleepers: [Sleeper] = []
        var cancelled: Set<Int> = []
    }

    private let state: Mutex<State>

    /// Creates a clock showing `now` (milliseconds since the Unix epoch).
    public init(now: Int64 = 1_700_000_000_000) {
        state = Mutex(State(now: now))
    }

    /// Milliseconds since the Unix epoch.
    public func now() -> Int64 { state.withLock { $0.now } }

    /// How many tasks sleep until at most `duration` from now (to tell a short backoff from long timers).
    public func sleeperCount(dueWithin duration: Duration) -> Int {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return state.withLock { state in state.sleepers.filter { $0.deadline <= state.now + milliseconds }.count }
    }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Waits `duration`; throws when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return false }
                    if milliseconds <= 0 { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: state.now + milliseconds, continuation: continuation))
                    return nil
                }
                switch resumeNow {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) { return state.sleepers.remove(at: index) }
                state.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let due: [Sleeper] = state.withLock { state in
            state.now += milliseconds
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
