import Dispatch
import ParleyWire
import Synchronization

/// Delivers chat hook events in the background: `enqueue` only appends under a short lock
/// (the send path never waits for an endpoint); a timer drives the ``ChatHookQueue`` and each
/// request goes to the poster, which answers later without holding a thread.
final class ChatHookDispatcher: Sendable {
    private struct State: Sendable {
        var queue: ChatHookQueue
        /// The deadline the latest timer was set for; an earlier deadline arms another one.
        var armedFor: Int64?
        var delivered = 0
        var failed = 0
    }

    /// Counters for tests and operators.
    struct Counts: Sendable, Equatable {
        var waiting: Int
        var delivered: Int
        var failed: Int
        var dropped: Int
        var abandoned: Int
    }

    private let state: Mutex<State>
    private let poster: any ChatHookPoster
    private let statistics: ChatHookStatistics
    private let clock: @Sendable () -> Int64
    private let wallClock: @Sendable () -> Int64
    private let timers = DispatchQueue(label: "parley.chat-hooks.timer")

    /// Creates a dispatcher; `clock` is monotonic milliseconds, `wallClock` Unix milliseconds.
    init(
        queue: ChatHookQueue, poster: any ChatHookPoster, statistics: ChatHookStatistics, clock: @escaping @Sendable () -> Int64,
        wallClock: @escaping @Sendable () -> Int64
    ) {
        state = Mutex(State(queue: queue))
        self.poster = poster
        self.statistics = statistics
        self.clock = clock
        self.wallClock = wallClock
    }

    /// Queues one event for an endpoint; returns at once.
    func enqueue(_ event: JSONValue, to target: ChatHookQueue.Target) {
        enqueue([event], to: target)
    }

    /// Queues events for an endpoint under one lock, so they are sent in one batch (or
    /// consecutive ones); returns at once.
    func enqueue(_ events: [JSONValue], to target: ChatHookQueue.Target) {
        guard !events.isEmpty else { return }
        let now = clock()
        let (arm, full): (Int64?, Int) = state.withLock { s in
            var full = 0
            for event in events where !s.queue.enqueue(event, to: target, now: now) { full += 1 }
            return (armIfNeeded(&s, now: now), full)
        }
        if full > 0 { statistics.dropped(events: full) }
        if let arm { schedule(after: arm) }
    }

    /// The counters now.
    var counts: Counts {
        state.withLock { s in
            Counts(
                waiting: s.queue.count, delivered: s.delivered, failed: s.failed, dropped: s.queue.dropped,
                abandoned: s.queue.abandoned)
        }
    }

    private func armIfNeeded(_ s: inout State, now: Int64) -> Int64? {
        guard let deadline = s.queue.nextDeadline else { return nil }
        if let armed = s.armedFor, armed <= deadline { return nil }
        s.armedFor = deadline
        return max(0, deadline - now)
    }

    private func schedule(after milliseconds: Int64) {
        timers.asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) { [self] in fire() }
    }

    private func fire() {
        let now = clock()
        let (deliveries, arm): ([ChatHookQueue.Delivery], Int64?) = state.withLock { s in
            s.armedFor = nil
            let due = s.queue.tick(now: now, wallMillis: wallClock())
            return (due, armIfNeeded(&s, now: now))
        }
        if let arm { schedule(after: arm) }
        for delivery in deliveries {
            poster.post(delivery.request) { [self] answer in report(delivery, succeeded: answer?.succeeded ?? false) }
        }
    }

    private func report(_ delivery: ChatHookQueue.Delivery, succeeded: Bool) {
        let now = clock()
        let (arm, abandoned): (Int64?, Int) = state.withLock { s in
            if succeeded { s.delivered += delivery.eventCount } else { s.failed += 1 }
            let before = s.queue.abandoned
            s.queue.result(id: delivery.id, succeeded: succeeded, now: now)
            return (armIfNeeded(&s, now: now), s.queue.abandoned - before)
        }
        if succeeded { statistics.delivered(events: delivery.eventCount) } else { statistics.failedRequest() }
        if abandoned > 0 { statistics.dropped(events: abandoned) }
        if let arm { schedule(after: arm) }
    }
}
