import ParleyWire

/// Runs one ``RedisConnectionStateMachine`` on an ``EventLoop``: opens the sockets it asks
/// for, feeds it bytes, closes and timer ticks, and carries out its actions.
///
/// Loop-confined: every method runs on ``loop``'s thread. The driver owns at most one
/// ``Connection`` at a time; one it has moved on from (timed out, replaced, closed) is
/// detached from it before being closed, so no stale socket event reaches the machine, and
/// after ``close()`` no callback runs again.
final class RedisConnectionDriver: ConnectionHandler, @unchecked Sendable {
    // @unchecked: all mutable state is confined to `loop`'s thread.
    typealias Completion = (Result<RESPValue, RedisError>) -> Void

    let loop: EventLoop
    private let connectTimeout: Duration
    private var machine: RedisConnectionStateMachine
    private var connection: Connection?
    /// Bumped whenever the driver gives up on a connection, so a connect that completes late is closed unused.
    private var attempt: UInt64 = 0
    private var timer: TimerHandle?
    private var timerDeadline: Int64?
    private var completions: [RedisConnectionStateMachine.CommandID: Completion] = [:]
    private var subscriptionWaiters: [SubscriptionWaiter] = []
    private var handlers: [RedisSubscriptionTarget: @Sendable (RedisPubSubMessage) -> Void] = [:]
    /// Called on the loop when the connection becomes ready (true) or is lost (false).
    var onConnectionChange: ((Bool, RedisError?) -> Void)?

    private final class SubscriptionWaiter {
        var remaining: Set<RedisSubscriptionTarget>
        let completion: (Result<Void, RedisError>) -> Void
        init(_ remaining: Set<RedisSubscriptionTarget>, _ completion: @escaping (Result<Void, RedisError>) -> Void) {
            self.remaining = remaining
            self.completion = completion
        }
    }

    init(configuration: RedisConnectionConfiguration, loop: EventLoop, seed: UInt64) {
        self.loop = loop
        self.connectTimeout = .milliseconds(configuration.connectTimeout)
        self.machine = RedisConnectionStateMachine(configuration: configuration, seed: seed)
    }

    private var now: Int64 { Int64(MonotonicClock.now() / 1_000_000) }

    var phase: RedisConnectionStateMachine.Phase { machine.phase }

    // MARK: Calls from the client (loop thread)

    func start() { run(machine.start(now: now)) }

    func send(_ command: RESPCommand, id: RedisConnectionStateMachine.CommandID, _ completion: @escaping Completion) {
        completions[id] = completion
        run(machine.send(command, id: id, now: now))
    }

    func cancel(_ id: RedisConnectionStateMachine.CommandID) { run(machine.cancel(id)) }

    func subscribe(
        _ targets: [RedisSubscriptionTarget], handler: @escaping @Sendable (RedisPubSubMessage) -> Void,
        _ completion: @escaping (Result<Void, RedisError>) -> Void
    ) {
        guard machine.phase != .closed else {
            completion(.failure(RedisError(.clientClosed, "the Redis client was closed")))
            return
        }
        for target in targets { handlers[target] = handler }
        subscriptionWaiters.append(SubscriptionWaiter(Set(targets), completion))
        if machine.phase == .idle { run(machine.start(now: now)) }
        run(machine.subscribe(targets, now: now))
    }

    func unsubscribe(_ targets: [RedisSubscriptionTarget]) {
        for target in targets { handlers[target] = nil }
        run(machine.unsubscribe(targets, now: now))
    }

    func close() {
        run(machine.close())
        timer?.cancel()
        timer = nil
        handlers = [:]
        onConnectionChange = nil
        failSubscriptionWaiters(RedisError(.clientClosed, "the Redis client was closed"))
    }

    /// A subscribe call waits for its confirmations on one connection: when that connection
    /// is lost first the caller hears why (the subscriptions stay and are renewed on reconnect).
    private func failSubscriptionWaiters(_ error: RedisError) {
        let waiters = subscriptionWaiters
        subscriptionWaiters = []
        for waiter in waiters { waiter.completion(.failure(error)) }
    }

    // MARK: Actions

    private func run(_ actions: [RedisConnectionStateMachine.Action]) {
        for action in actions { perform(action) }
        armTimer()
    }

    private func perform(_ action: RedisConnectionStateMachine.Action) {
        switch action {
        case .connect(let host, let port):
            open(host: host, port: port)
        case .write(let bytes):
            connection?.write(bytes)
        case .closeConnection:
            detach()
        case .succeed(let id, let value):
            completions.removeValue(forKey: id)?(.success(value))
        case .fail(let id, let error):
            completions.removeValue(forKey: id)?(.failure(error))
        case .message(let message):
            let handler = handlers[message.target]
            handler?(message)
        case .subscribed(let target):
            confirm(target)
        case .ready:
            onConnectionChange?(true, nil)
        case .disconnected(let error):
            failSubscriptionWaiters(error)
            onConnectionChange?(false, error)
        }
    }

    private func confirm(_ target: RedisSubscriptionTarget) {
        var done: [SubscriptionWaiter] = []
        subscriptionWaiters.removeAll { waiter in
            waiter.remaining.remove(target)
            guard waiter.remaining.isEmpty else { return false }
            done.append(waiter)
            return true
        }
        for waiter in done { waiter.completion(.success(())) }
    }

    private func detach() {
        attempt &+= 1
        guard let connection else { return }
        self.connection = nil
        connection.handler = nil
        connection.abort(nil)
    }

    private func open(host: String, port: Int) {
        attempt &+= 1
        let token = attempt
        if let literal = SocketAddress(host: host, port: port) {
            connect(to: literal, token: token)
            return
        }
        // Name resolution blocks: keep it off the loop.
        BlockingWork.run { [self] in
            let result: Result<[SocketAddress], NetError>
            do throws(NetError) {
                result = .success(try SocketAddress.resolve(host: host, port: port))
            } catch {
                result = .failure(error)
            }
            loop.execute { [self] in
                guard token == attempt else { return }
                switch result {
                case .success(let addresses): connect(to: addresses[0], token: token)
                case .failure(let error): connectFailed(error)
                }
            }
        }
    }

    private func connect(to address: SocketAddress, token: UInt64) {
        Connection.connect(to: address, on: loop, timeout: connectTimeout) { [self] result in
            switch result {
            case .success(let opened):
                guard token == attempt, machine.phase == .connecting else {
                    opened.abort(nil)
                    return
                }
                connection = opened
                // Pipelined commands may queue far more than a browser's frames would.
                opened.maxOutboundBytes = 64 << 20
                opened.handler = self
                run(machine.connected(now: now))
            case .failure(let error):
                guard token == attempt else { return }
                connectFailed(error)
            }
        }
    }

    private func connectFailed(_ error: NetError) {
        run(machine.connectionClosed(RedisError(.connectionClosed, "connecting to Redis: \(error)"), now: now))
    }

    private func armTimer() {
        let deadline = machine.nextDeadline
        guard deadline != timerDeadline else { return }
        timer?.cancel()
        timer = nil
        timerDeadline = deadline
        guard let deadline else { return }
        let delay = max(0, deadline - now)
        timer = loop.scheduleLocal(after: .milliseconds(delay)) { [weak self] in
            guard let self else { return }
            timer = nil
            timerDeadline = nil
            run(machine.tick(now: now))
        }
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        guard connection === self.connection else { return }
        run(machine.receive(bytes, now: now))
    }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        guard connection === self.connection else { return }
        self.connection = nil
        let reason = error.map { RedisError(.connectionClosed, "the connection to Redis failed: \($0)") }
        run(machine.connectionClosed(reason, now: now))
    }
}
