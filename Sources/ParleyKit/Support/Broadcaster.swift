import Synchronization

/// Fans values out to any number of AsyncStreams; streams that end are forgotten.
/// With `replayLatest`, a new stream starts with the last value sent.
public final class Broadcaster<Element: Sendable>: Sendable {
    private struct State {
        var nextID = 0
        var sinks: [Int: AsyncStream<Element>.Continuation] = [:]
        var latest: Element?
        var finished = false
    }

    private let state = Mutex(State())
    private let replayLatest: Bool

    /// Creates a broadcaster; with `replayLatest`, new streams start with the last value (or `initial`).
    public init(replayLatest: Bool = false, initial: Element? = nil) {
        self.replayLatest = replayLatest
        state.withLock { $0.latest = initial }
    }

    /// How many streams are open.
    public var subscriberCount: Int { state.withLock { $0.sinks.count } }

    /// A new stream of the values sent from now on.
    public func stream() -> AsyncStream<Element> {
        let (stream, sink) = AsyncStream<Element>.makeStream()
        let id: Int? = state.withLock { state in
            if state.finished { return nil }
            state.nextID += 1
            state.sinks[state.nextID] = sink
            if replayLatest, let latest = state.latest { sink.yield(latest) }
            return state.nextID
        }
        guard let id else {
            sink.finish()
            return stream
        }
        sink.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.sinks.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends a value to every stream.
    public func send(_ value: Element) {
        let sinks = state.withLock { state in
            state.latest = value
            return Array(state.sinks.values)
        }
        for sink in sinks { sink.yield(value) }
    }

    /// Ends every stream; later streams end at once.
    public func finish() {
        let sinks = state.withLock { state in
            state.finished = true
            defer { state.sinks = [:] }
            return Array(state.sinks.values)
        }
        for sink in sinks { sink.finish() }
    }
}
