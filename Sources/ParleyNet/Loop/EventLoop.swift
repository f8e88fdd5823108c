import CLinux
import Glibc
import ParleyPlatform
import ParleySystem
import Synchronization

/// Something registered with a loop's selector that is not a ``Connection``.
protocol IOSourceHandler: AnyObject {
    /// Handles one readiness report; runs on the loop thread.
    func handle(_ event: SelectorEvent)
    /// The loop is stopping: release the fd.
    func loopWillStop()
}

/// One registration slot. Connections get their own case so the hot path needs no
/// existential dispatch.
enum IOSource {
    case connection(Connection)
    case other(any IOSourceHandler)
}

/// A single-threaded event loop: a selector, timers, a task queue and the connections it owns.
///
/// Threading contract: an `EventLoop` runs on exactly one thread for its whole life. Every
/// connection, listener and timer created on it is touched only on that thread. Methods
/// documented "any thread" (``execute(_:)``, ``schedule(after:_:)``, ``inEventLoop``,
/// ``TimerHandle/cancel()``) are safe everywhere; everything else in ParleyNet that takes or
/// returns loop-bound objects must be called on the loop (hop with ``execute(_:)``).
public final class EventLoop: @unchecked Sendable {
    // @unchecked: mutable state below the "loop-confined" mark is used only on the loop
    // thread (enforced by the threading contract); cross-thread state is Mutex/Atomic.

    /// The loop's position in its group (0-based).
    public let index: Int
    /// The readiness mechanism this loop waits on.
    public let backend: SelectorBackend
    /// The logger given to the group.
    public let logger: NetLogger

    // Cross-thread state.
    private let remoteTasks = Mutex<ContiguousArray<@Sendable () -> Void>>([])
    private let wakePending = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    /// The eventfd other threads write to wake the loop. Written from any thread, so it is
    /// closed only in `deinit`, when no thread can call ``execute(_:)`` any more: closing it
    /// when the loop stops would let a late `execute` write to a closed or reused number.
    private var wakeEvent: FileDescriptor?
    private var thread = pthread_t()

    // Loop-confined state.
    let selector: any Selector
    private var slots: ContiguousArray<Slot> = []
    private var freeSlots: [Int] = []
    var timers = TimerHeap()
    /// Monotonic time of the current loop iteration (nanoseconds); cheap "now" for hot paths.
    private(set) var now: UInt64
    /// Counts loop passes; a connection sends at once only for its first write in a pass.
    private(set) var iteration: UInt64 = 0
    private var localTasks: ContiguousArray<() -> Void> = []
    private var spareTasks: ContiguousArray<() -> Void> = []
    private var spareRemote: ContiguousArray<@Sendable () -> Void> = []
    var pendingFlush: ContiguousArray<Connection> = []
    private var spareFlush: ContiguousArray<Connection> = []
    private var wokenRemotely = false
    /// Shared by every connection on this loop: reads land here and are handed to the
    /// connection's handler synchronously, so idle connections own no read buffer.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Scratch scatter/gather array for `sendmsg`.
    let iovecs: UnsafeMutableBufferPointer<iovec>
    private let events: UnsafeMutableBufferPointer<SelectorEvent>
    private var stopHooks: [() -> Void] = []

    private struct Slot {
        var source: IOSource?
        var generation: UInt32
    }

    /// The size of the per-loop read buffer.
    public static let readBufferSize = 64 * 1024

    init(index: Int, backend: SelectorBackend, logger: NetLogger) throws(NetError) {
        self.index = index
        self.backend = backend
        self.logger = logger
        switch backend {
        case .epoll: selector = try EpollSelector()
        case .poll: selector = PollSelector()
        }
        do {
            wakeEvent = try FileDescriptor.opening("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        } catch {
            throw NetError(error)
        }
        now = MonotonicClock.now()
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        iovecs = UnsafeMutableBufferPointer<iovec>.allocate(capacity: Int(min(clinux_iov_max(), 1024)))
        events = UnsafeMutableBufferPointer<SelectorEvent>.allocate(capacity: 1024)
        events.initialize(repeating: SelectorEvent(token: 0, readable: false, writable: false, hangup: false))
        // Slot 0 is the wake-up eventfd.
        slots.append(Slot(source: nil, generation: 0))
        try wakeEvent?.withRawValue { fd throws(NetError) in try selector.register(fd: fd, token: 0, interest: .read) }
    }

    deinit {
        try? wakeEvent.take()?.close()
        readBuffer.deallocate()
        iovecs.deallocate()
        events.deallocate()
    }

    // MARK: Any thread

    /// Whether the calling thread is this loop's thread. Any thread.
    public var inEventLoop: Bool {
        pthread_getspecific(currentLoopKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// The loop whose thread is calling, if any. Any thread.
    public static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentLoopKey) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `task` on the loop thread. Any thread.
    ///
    /// From the loop itself the task is appended to a local queue (no lock, no syscall) and
    /// runs later in the same iteration; from other threads it goes through a mutex-guarded
    /// queue and the loop is woken through its eventfd (at most one write per wake-up).
    /// Tasks run in submission order per submitting thread. Tasks submitted after the loop
    /// stopped never run.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        if inEventLoop {
            localTasks.append(task)
        } else {
            remoteTasks.withLock { $0.append(task) }
            wake()
        }
    }

    /// Runs `task` after `delay` on the loop thread; the returned handle cancels it. Any thread.
    ///
    /// Timers fire in deadline order (ties in scheduling order), on the monotonic clock,
    /// never early, at millisecond granularity.
    @discardableResult
    public func schedule(after delay: Duration, _ task: @escaping @Sendable () -> Void) -> TimerHandle {
        if inEventLoop { return scheduleLocal(after: delay, task) }
        let deadline = MonotonicClock.now() &+ MonotonicClock.nanoseconds(delay)
        let entry = TimerEntry(deadline: deadline, sequence: 0, loop: self, task: task)
        let handle = TimerHandle(entry: entry)
        execute { [self] in insertRemoteTimer(entry) }
        return handle
    }

    /// Asks the loop to stop after its current iteration; registered connections are then
    /// closed (their handlers see ``NetError/Code/closed``). Any thread; does not wait.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    private func wake() {
        guard !wakePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        // Fails only if the counter would overflow, when the loop is awake anyway.
        _ = wakeEvent?.withRawValue { fd in try? SystemCall.retrying("write") { Glibc.write(fd, &one, 8) } }
    }

    // MARK: Loop thread only

    /// Schedules a timer whose task need not be `Sendable`. Loop thread only.
    @discardableResult
    func scheduleLocal(after delay: Duration, _ task: @escaping () -> Void) -> TimerHandle {
        let deadline = MonotonicClock.now() &+ MonotonicClock.nanoseconds(delay)
        return scheduleLocal(deadline: deadline, task)
    }

    /// Schedules a timer at an absolute monotonic deadline. Loop thread only.
    func scheduleLocal(deadline: UInt64, _ task: @escaping () -> Void) -> TimerHandle {
        let entry = TimerEntry(deadline: deadline, sequence: timers.makeSequence(), loop: self, task: task)
        timers.insert(entry)
        return TimerHandle(entry: entry)
    }

    private func insertRemoteTimer(_ entry: TimerEntry) {
        guard !entry.cancelled.load(ordering: .acquiring) else { return }
        entry.sequence = timers.makeSequence()
        timers.insert(entry)
    }

    /// Enqueues a non-`Sendable` task. Loop thread only.
    func executeLocal(_ task: @escaping () -> Void) {
        localTasks.append(task)
    }

    /// Registers a hook that runs when the loop stops (before connections are closed).
    /// Loop thread only.
    func onStop(_ hook: @escaping () -> Void) { stopHooks.append(hook) }

    /// Adds a source to the selector; returns its token. Loop thread only.
    func register(_ source: IOSource, fd: Int32, interest: SelectorInterest) throws(NetError) -> UInt64 {
        let index: Int
        if let free = freeSlots.popLast() {
            index = free
            slots[index].source = source
        } else {
            index = slots.count
            slots.append(Slot(source: source, generation: 0))
        }
        let token = UInt64(slots[index].generation) << 32 | UInt64(index)
        do {
            try selector.register(fd: fd, token: token, interest: interest)
        } catch {
            releaseSlot(index)
            throw error
        }
        return token
    }

    /// Changes a registration's interest. Loop thread only.
    func reregister(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError) {
        try selector.reregister(fd: fd, token: token, interest: interest)
    }

    /// Removes a registration; the caller closes the fd afterwards. Loop thread only.
    func deregister(fd: Int32, token: UInt64) {
        selector.deregister(fd: fd)
        let index = Int(token & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].generation == UInt32(token >> 32) else { return }
        releaseSlot(index)
    }

    private func releaseSlot(_ index: Int) {
        slots[index].source = nil
        // A new generation makes stale reports for this slot (same batch) unmatchable.
        slots[index].generation &+= 1
        freeSlots.append(index)
    }

    /// Marks a connection to be flushed at the end of this iteration. Loop thread only.
    func scheduleFlush(_ connection: Connection) {
        pendingFlush.append(connection)
    }

    // MARK: The loop

    func start() throws(NetError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = clinux_thread_create(
            &thread,
            { context in
                let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
            }, context)
        guard rc == 0 else {
            Unmanaged<EventLoop>.fromOpaque(context).release()
            throw NetError.fromErrno(rc, "pthread_create")
        }
    }

    func join() {
        pthread_join(thread, nil)
    }

    private func run() {
        // Started from a Swift pool worker, the loop would run at that worker's nice value, not
        // the one the operator gave the process (`nice -n -20 parley serve`).
        CurrentThread.adoptProcessDefaults(name: "parley-loop\(index)")
        pthread_setspecific(currentLoopKey, Unmanaged.passUnretained(self).toOpaque())
        now = MonotonicClock.now()
        while !stopRequested.load(ordering: .acquiring) {
            let count = selector.wait(timeoutMilliseconds: waitTimeout(), into: events)
            now = MonotonicClock.now()
            iteration &+= 1
            for i in 0..<count { dispatch(events[i]) }
            runExpiredTimers()
            runTasks()
            flushPending()
        }
        tearDown()
        pthread_setspecific(currentLoopKey, nil)
    }

    private func waitTimeout() -> Int32 {
        if !localTasks.isEmpty || !pendingFlush.isEmpty { return 0 }
        guard let deadline = timers.nextDeadline else { return -1 }
        let current = MonotonicClock.now()
        guard deadline > current else { return 0 }
        // Round up so a sub-millisecond remainder sleeps instead of spinning with timeout 0.
        let milliseconds = (deadline - current + 999_999) / 1_000_000
        return Int32(min(milliseconds, UInt64(Int32.max)))
    }

    @inline(__always)
    private func dispatch(_ event: SelectorEvent) {
        let index = Int(event.token & 0xFFFF_FFFF)
        if index == 0 {
            drainWakeFD()
            return
        }
        guard index < slots.count, slots[index].generation == UInt32(event.token >> 32),
            let source = slots[index].source
        else { return }
        switch source {
        case .connection(let connection): connection.handle(event)
        case .other(let handler): handler.handle(event)
        }
    }

    private func drainWakeFD() {
        var value: UInt64 = 0
        _ = wakeEvent?.withRawValue { fd in try? SystemCall.nonBlocking("read") { Glibc.read(fd, &value, 8) } }
        // Clear before draining: a producer that enqueues after this point writes again.
        wakePending.store(false, ordering: .releasing)
        wokenRemotely = true
    }

    private func runExpiredTimers() {
        guard timers.nextDeadline != nil else { return }
        let current = now
        while let entry = timers.popExpired(now: current) {
            let task = entry.task
            entry.task = nil
            guard !entry.cancelled.load(ordering: .acquiring) else { continue }
            task?()
        }
    }

    private func runTasks() {
        if wokenRemotely {
            wokenRemotely = false
            var batch = ContiguousArray<@Sendable () -> Void>()
            swap(&batch, &spareRemote)
            remoteTasks.withLock { swap(&$0, &batch) }
            for task in batch { task() }
            batch.removeAll(keepingCapacity: true)
            spareRemote = batch
        }
        // Tasks enqueued by these tasks run in the next iteration (wait timeout 0), so a task
        // that keeps re-enqueueing itself cannot starve I/O.
        guard !localTasks.isEmpty else { return }
        swap(&localTasks, &spareTasks)
        for task in spareTasks { task() }
        spareTasks.removeAll(keepingCapacity: true)
    }

    private func flushPending() {
        while !pendingFlush.isEmpty {
            var batch = ContiguousArray<Connection>()
            swap(&batch, &spareFlush)
            swap(&batch, &pendingFlush)
            for connection in batch { connection.flushScheduled() }
            batch.removeAll(keepingCapacity: true)
            spareFlush = batch
        }
    }

    private func tearDown() {
        for hook in stopHooks { hook() }
        stopHooks.removeAll()
        runTasks()
        for index in slots.indices {
            guard let source = slots[index].source else { continue }
            switch source {
            case .connection(let connection): connection.abort(NetError(.closed, "event loop stopped"))
            case .other(let handler): handler.loopWillStop()
            }
        }
        slots.removeAll()
        timers.removeAll()
        localTasks.removeAll()
        pendingFlush.removeAll()
        wakeEvent?.withRawValue { selector.deregister(fd: $0) }
        selector.close()
    }
}

/// Thread-specific slot holding the loop that runs on the current thread.
let currentLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
