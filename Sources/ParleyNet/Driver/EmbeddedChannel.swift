import ParleyWire

/// A socket-free stand-in for a ``Connection``, for driving a ``ChannelDriver`` by hand in
/// tests as swift-nio's `EmbeddedChannel` does: bytes from the peer go in with ``feed(_:)``,
/// what the driver wrote comes out of ``readOutbound()``, and time passes only when
/// ``advance(by:)`` moves the manual clock, firing the driver's timers and the idle timeout in
/// order. Everything runs on the calling thread, at once.
///
/// A close is immediate (no flush, no linger); ``closeError`` tells an abort from an orderly
/// close. Output stays "queued" until read, so ``outboundBytes`` counts what the test has not
/// taken yet.
final class EmbeddedChannel: DriverChannel {
    /// A loop that never runs: only for what drivers report as their loop.
    let loop: EventLoop
    /// Receives the channel's events; released at the close, as a connection's handler is.
    var driver: (any ChannelDriver)?
    /// Time on the manual clock since the channel was made.
    private(set) var now: Duration = .zero
    /// Whether ``close()`` or ``abort(_:)`` ran.
    private(set) var isClosed = false
    /// The error the channel was aborted with, if it was.
    private(set) var closeError: NetError?
    /// Whether an orderly ``close()`` ended the channel.
    private(set) var closedGracefully = false
    /// Whether the driver asked to stop reading.
    private(set) var isReadingPaused = false
    var idleTimeout: Duration? { didSet { lastActivity = now } }
    var maxOutboundBytes = 1 << 20
    private var outbound: [UInt8] = []
    private var timers: [TimerEntry] = []
    private var sequence: UInt64 = 0
    private var lastActivity: Duration = .zero

    /// Creates an open channel.
    init() throws(NetError) {
        loop = try EventLoop(index: 0, backend: .poll, logger: .silent)
    }

    // MARK: The test's side

    /// Delivers bytes from the peer to the driver.
    func feed(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        lastActivity = now
        bytes.withUnsafeBytes { driver?.channelDidRead($0) }
    }

    /// Delivers bytes from the peer to the driver.
    func feed(_ text: String) { feed(Array(text.utf8)) }

    /// Tells the driver the peer shut down its sending side.
    func feedEOF() {
        guard !isClosed else { return }
        driver?.channelDidReachEOF()
    }

    /// Takes everything the driver has written since the last call.
    func readOutbound() -> [UInt8] {
        defer { outbound = [] }
        return outbound
    }

    /// Moves the manual clock forward, firing due timers in deadline order and then the idle
    /// timeout if it ran out.
    func advance(by duration: Duration) {
        let target = now + duration
        while let next = dueTimer(before: target) {
            now = .nanoseconds(Int64(next.deadline))
            guard let task = next.task else { continue }
            next.task = nil
            task()
        }
        now = target
        if let idleTimeout, !isClosed, now - lastActivity >= idleTimeout {
            lastActivity = now
            driver?.channelDidTimeOut()
        }
    }

    private func dueTimer(before target: Duration) -> TimerEntry? {
        timers.removeAll { $0.cancelled.load(ordering: .acquiring) || $0.task == nil }
        let limit = MonotonicClock.nanoseconds(target)
        guard
            let index = timers.indices.filter({ timers[$0].deadline <= limit })
                .min(by: { timers[$0].firesBefore(timers[$1]) })
        else { return nil }
        return timers.remove(at: index)
    }

    // MARK: DriverChannel

    var isOnChannelThread: Bool { true }

    func hop(_ work: @escaping @Sendable () -> Void) { work() }

    func scheduleLocal(after delay: Duration, _ task: @escaping () -> Void) -> TimerHandle {
        sequence += 1
        let entry = TimerEntry(
            deadline: MonotonicClock.nanoseconds(now) + MonotonicClock.nanoseconds(delay), sequence: sequence, loop: loop, task: task)
        timers.append(entry)
        return TimerHandle(entry: entry)
    }

    var isOpen: Bool { !isClosed }
    var outboundBytes: Int { outbound.count }
    var isWriteBlocked: Bool { false }
    var remoteAddress: SocketAddress? { nil }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        guard !isClosed else { return false }
        guard outbound.isEmpty || outbound.count + bytes.count <= maxOutboundBytes else {
            driver?.channelDidExceedOutboundLimit()
            return false
        }
        lastActivity = now
        outbound += bytes
        return true
    }

    @discardableResult
    func write(_ chunk: SharedBytes) -> Bool {
        write(Array(UnsafeRawBufferPointer(start: chunk.baseAddress, count: chunk.count)))
    }

    @discardableResult
    func discardQueuedOutput() -> Int {
        defer { outbound = [] }
        return outbound.count
    }

    func pauseReading() { isReadingPaused = true }

    func resumeReading() { isReadingPaused = false }

    func close() {
        guard !isClosed else { return }
        closedGracefully = true
        finishClosing(nil)
    }

    func abort(_ error: NetError?) {
        guard !isClosed else { return }
        closeError = error ?? NetError(.closed, "aborted")
        finishClosing(error)
    }

    private func finishClosing(_ error: NetError?) {
        isClosed = true
        timers.removeAll()
        let driver = self.driver
        self.driver = nil
        driver?.channelDidClose(error)
    }
}
