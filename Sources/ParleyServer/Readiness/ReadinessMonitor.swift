import ParleyNet
import Synchronization

/// Answers `/readyz`: probes the store with a trivial query under a short timeout, remembers
/// the outcome in a ``ReadinessState`` and logs one line when the store goes down and one
/// when it comes back.
///
/// Probes also run every `interval` on their own, so an outage is logged even when nobody
/// asks. At most one probe is out at a time; callers arriving meanwhile share its outcome, so
/// a hung database collects one stuck query, not one per health check.
final class ReadinessMonitor: Sendable {
    /// Runs the trivial query; throws when the store cannot answer it.
    typealias Probe = @Sendable () async throws -> Void

    private let probe: Probe?
    private let loop: EventLoop
    private let timeout: Duration
    private let interval: Duration
    private let logger: Logger
    private let clock: @Sendable () -> Int64
    private let state = Mutex(ReadinessState())
    private let waiting = Mutex<[CheckedContinuation<ReadinessState.Problem?, Never>]?>(nil)
    private let outstanding = Atomic<Bool>(false)

    /// `probe` nil (no store) is always reachable; timers and timeouts run on `loop`.
    init(
        probe: Probe?, loop: EventLoop, timeout: Duration = .seconds(2), interval: Duration = .seconds(5),
        logger: Logger, clock: @escaping @Sendable () -> Int64 = ServerClock.monotonicMilliseconds
    ) {
        self.probe = probe
        self.loop = loop
        self.timeout = timeout
        self.interval = interval
        self.logger = logger
        self.clock = clock
    }

    /// Probes now (or joins the probe in flight) and returns why the server is not ready, or nil.
    func check() async -> ReadinessState.Problem? {
        if let problem = state.withLock({ $0.draining ? $0.problem : nil }) { return problem }
        guard probe != nil else { return state.withLock { $0.problem } }
        return await withCheckedContinuation { continuation in
            switch join(continuation) {
            case .joined: break
            case .startProbe: runProbe()
            case .stillStuck: continuation.resume(returning: state.withLock { $0.problem })
            }
        }
    }

    private enum Join { case joined, startProbe, stillStuck }

    /// Adds a waiter to the probe in flight, or makes it the first of a new probe; a probe
    /// that timed out but has not returned yet blocks new ones (its outcome already stands).
    private func join(_ continuation: CheckedContinuation<ReadinessState.Problem?, Never>) -> Join {
        waiting.withLock { list in
            if list != nil {
                list!.append(continuation)
                return .joined
            }
            if outstanding.load(ordering: .acquiring) { return .stillStuck }
            outstanding.store(true, ordering: .releasing)
            list = [continuation]
            return .startProbe
        }
    }

    /// From now on `/readyz` answers 503 `draining`.
    func startDraining() {
        state.withLock { $0.startDraining() }
    }

    /// Starts the periodic probes (which log outages nobody asked about).
    func startPeriodicChecks() {
        guard probe != nil else { return }
        let interval = self.interval
        let loop = self.loop
        @Sendable func tick() {
            Task {
                _ = await self.check()
                _ = loop.schedule(after: interval, tick)
            }
        }
        _ = loop.schedule(after: interval, tick)
    }

    private func runProbe() {
        guard let probe else { return }
        let once = Atomic<Bool>(false)
        let finish: @Sendable (String?) -> Void = { [self] failure in
            guard !once.exchange(true, ordering: .acquiringAndReleasing) else { return }
            complete(failure: failure)
        }
        let timer = loop.schedule(after: timeout) { [timeout] in
            finish("no answer within \(timeout.components.seconds) s")
        }
        Task {
            do {
                try await probe()
                finish(nil)
            } catch {
                finish("\(error)")
            }
            timer.cancel()
            outstanding.store(false, ordering: .releasing)
        }
    }

    private func complete(failure: String?) {
        let now = clock()
        let (transition, problem) = state.withLock { state in
            (state.recordProbe(failure: failure, now: now), state.problem)
        }
        log(transition)
        let waiters = waiting.withLock { list in
            defer { list = nil }
            return list ?? []
        }
        for waiter in waiters { waiter.resume(returning: problem) }
    }

    private func log(_ transition: ReadinessState.Transition?) {
        switch transition {
        case .storeWentDown(let reason)?:
            logger.error("database unreachable; /readyz answers 503 until it recovers", [("error", reason)])
        case .storeRecovered(let downMilliseconds)?:
            logger.info("database reachable again", [("down_ms", "\(downMilliseconds)")])
        case nil:
            break
        }
    }
}
