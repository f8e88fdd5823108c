/// The protocol state of one Redis connection and its reconnects, without I/O.
///
/// Inputs are the driver's socket events (connected, bytes, closed), the caller's commands and
/// (un)subscriptions, and clock ticks, each with the current monotonic time in milliseconds;
/// outputs are ``Action``s the driver carries out in order. One value lives as long as the
/// client: when a connection is lost it fails what was outstanding, waits a backoff with
/// jitter (from its own seeded generator, so tests are deterministic) and connects again,
/// logging in and selecting the database as the URL says and subscribing again to every
/// channel and pattern it held.
///
/// Replies are matched to commands first-in first-out. A command's `-ERR` fails that command
/// alone; bytes that are not RESP, or a reply nothing is waiting for, end the connection and
/// fail everything outstanding, because the stream can no longer be trusted to line up.
public struct RedisConnectionStateMachine: Sendable {
    /// The driver's name for one command, chosen by the driver and unique while it is outstanding.
    public typealias CommandID = UInt64

    /// Where the connection stands.
    public enum Phase: Sendable, Equatable {
        /// Created; ``start(now:)`` has not been called.
        case idle
        /// A TCP connection is being opened.
        case connecting
        /// Connected; `AUTH` and `SELECT` are outstanding.
        case authenticating
        /// Commands flow.
        case ready
        /// The connection was lost; a new attempt starts at ``nextDeadline``.
        case waitingToReconnect
        /// ``close()`` was called; nothing more happens.
        case closed
    }

    /// What the driver must do.
    public enum Action: Sendable, Equatable {
        /// Open a TCP connection and call ``connected(now:)`` or ``connectionClosed(_:now:)``.
        case connect(host: String, port: Int)
        /// Write these bytes to the current connection.
        case write([UInt8])
        /// Close the current connection; do not report its close back (the machine has moved on).
        case closeConnection
        /// The reply to a command.
        case succeed(CommandID, RESPValue)
        /// A command failed (refused, cancelled, or lost with its connection).
        case fail(CommandID, RedisError)
        /// A published message arrived.
        case message(RedisPubSubMessage)
        /// The server confirmed a subscription (also after a reconnect).
        case subscribed(RedisSubscriptionTarget)
        /// Logged in and ready; commands flow.
        case ready
        /// The connection was lost or refused; the machine will reconnect.
        case disconnected(RedisError)
    }

    /// What the replies now expected answer.
    enum Expected: Sendable, Equatable {
        case command(CommandID)
        /// A command whose caller gave up: its reply is read and dropped.
        case discarded
        case auth
        case select
        case keepalive
    }

    struct Outstanding: Sendable {
        var expected: Expected
        var sentAt: Int64
    }

    /// A `subscribe`/`unsubscribe` confirmation the server owes.
    struct Confirmation: Sendable, Equatable {
        var kind: String
        var target: RedisSubscriptionTarget
    }

    /// The settings.
    public let configuration: RedisConnectionConfiguration
    /// Where the connection stands.
    public internal(set) var phase: Phase = .idle
    /// Connection attempts since the last one that became ready.
    public internal(set) var failedAttempts = 0
    /// The channels and patterns the caller wants, kept across reconnects.
    public internal(set) var subscriptions: Set<RedisSubscriptionTarget> = []
    /// The error that ended the last connection, while waiting to reconnect.
    public internal(set) var lastError: RedisError?

    var parser: RESPParser
    var outstanding = FIFO<Outstanding>()
    var held: [(id: CommandID, command: RESPCommand)] = []
    var confirmations = FIFO<Confirmation>()
    var confirmationSentAt: Int64 = 0
    var confirmed: Set<RedisSubscriptionTarget> = []
    /// Whether this connection has subscribed and not yet dropped every subscription.
    var connectionInSubscriberMode = false
    var phaseDeadline: Int64 = 0
    var lastRead: Int64 = 0
    var random: SplitMix64

    /// Creates the machine; `seed` drives the reconnect jitter.
    public init(configuration: RedisConnectionConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.parser = RESPParser(limits: configuration.parserLimits)
        self.random = SplitMix64(seed: seed)
    }

    /// Whether ordinary commands are refused (only PING passes): subscriptions are wanted or
    /// still held on this connection.
    public var isSubscriber: Bool { !subscriptions.isEmpty || connectionInSubscriberMode }

    /// Commands sent and not yet answered (cancelled ones included: their replies still come).
    public var outstandingCount: Int { outstanding.count }

    // MARK: Lifecycle

    /// Starts the first connection.
    public mutating func start(now: Int64) -> [Action] {
        guard phase == .idle else { return [] }
        return beginConnecting(now: now)
    }

    /// The TCP connection is open: log in, select the database, or be ready at once.
    public mutating func connected(now: Int64) -> [Action] {
        guard phase == .connecting else { return [] }
        phase = .authenticating
        phaseDeadline = now + configuration.connectTimeout
        parser = RESPParser(limits: configuration.parserLimits)
        lastRead = now
        var bytes: [UInt8] = []
        let url = configuration.url
        if let password = url.password {
            var arguments = [Array("AUTH".utf8)]
            if let user = url.user { arguments.append(Array(user.utf8)) }
            arguments.append(Array(password.utf8))
            RESPCommand(arguments).encode(into: &bytes)
            outstanding.append(Outstanding(expected: .auth, sentAt: now))
        }
        if url.database != 0 {
            RESPCommand("SELECT", String(url.database)).encode(into: &bytes)
            outstanding.append(Outstanding(expected: .select, sentAt: now))
        }
        guard bytes.isEmpty else { return [.write(bytes)] }
        return becomeReady(now: now)
    }

    /// The connection closed by itself (peer, reset, refused); `error` says why, nil for an orderly close.
    public mutating func connectionClosed(_ error: RedisError?, now: Int64) -> [Action] {
        switch phase {
        case .connecting, .authenticating, .ready:
            let reason = error ?? RedisError(.connectionClosed, "the server closed the connection")
            return lose(reason, now: now, closeSocket: false)
        case .idle, .waitingToReconnect, .closed:
            return []
        }
    }

    /// Closes for good: fails everything outstanding with ``RedisError/Code/clientClosed``.
    public mutating func close() -> [Action] {
        let hadConnection = [.connecting, .authenticating, .ready].contains(phase)
        guard phase != .closed else { return [] }
        phase = .closed
        subscriptions = []
        var actions = failAll(RedisError(.clientClosed, "the Redis client was closed"))
        if hadConnection { actions.append(.closeConnection) }
        return actions
    }

    // MARK: Commands

    /// Sends `command` now, holds it until the connection is ready, or refuses it.
    public mutating func send(_ command: RESPCommand, id: CommandID, now: Int64) -> [Action] {
        if let refusal = refusal(of: command) { return [.fail(id, refusal)] }
        switch phase {
        case .closed:
            return [.fail(id, RedisError(.clientClosed, "the Redis client was closed"))]
        case .waitingToReconnect:
            return [.fail(id, waitingRefusal())]
        case .idle, .connecting, .authenticating:
            guard held.count < configuration.maxHeldCommands else {
                return [.fail(id, RedisError(.notConnected, "\(held.count) commands already wait for the connection"))]
            }
            held.append((id, command))
            return []
        case .ready:
            outstanding.append(Outstanding(expected: .command(id), sentAt: now))
            return [.write(command.encoded)]
        }
    }

    /// Why a command sent while waiting to reconnect fails: a refusal by the server (a wrong
    /// password, a database it does not have) keeps its own code, since retrying will not cure
    /// it and the caller must hear the real cause whether or not its command was held when the
    /// refusal came; a lost connection is `notConnected`, with the cause in the message.
    private func waitingRefusal() -> RedisError {
        if let lastError, lastError.code == .authenticationFailed || lastError.code == .selectFailed {
            return RedisError(lastError.code, "not connected to Redis; reconnecting (\(lastError.message))")
        }
        let cause = lastError.map { " (\($0))" } ?? ""
        return RedisError(.notConnected, "not connected to Redis; reconnecting\(cause)")
    }

    /// The caller of `id` gave up: fails it with ``RedisError/Code/cancelled``. A command
    /// already sent stays in the queue so its reply is read and dropped.
    public mutating func cancel(_ id: CommandID) -> [Action] {
        let cancelled = RedisError(.cancelled, "the command was cancelled")
        if let index = held.firstIndex(where: { $0.id == id }) {
            held.remove(at: index)
            return [.fail(id, cancelled)]
        }
        if outstanding.replaceFirst(where: { $0.expected == .command(id) }, with: { $0.expected = .discarded }) {
            return [.fail(id, cancelled)]
        }
        return []
    }

    private func refusal(of command: RESPCommand) -> RedisError? {
        guard let first = command.arguments.first, !first.isEmpty else {
            return RedisError(.invalidArgument, "an empty command")
        }
        let name = String(decoding: first, as: UTF8.self).uppercased()
        if Self.pubSubCommands.contains(name) {
            return RedisError(.invalidArgument, "\(name) is sent through subscribe/unsubscribe, not as a command")
        }
        if isSubscriber && name != "PING" {
            return RedisError(.subscriberMode, "\(name) on a subscriber connection (only PING is allowed)")
        }
        return nil
    }

    /// Commands that change the reply stream's shape and so only the machine may send.
    static let pubSubCommands: Set<String> = [
        "SUBSCRIBE", "PSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE", "SSUBSCRIBE", "SUNSUBSCRIBE",
        "MONITOR", "RESET", "QUIT", "HELLO"
    ]

    // MARK: Internals shared by the extensions

    mutating func beginConnecting(now: Int64) -> [Action] {
        phase = .connecting
        phaseDeadline = now + configuration.connectTimeout
        return [.connect(host: configuration.url.host, port: configuration.url.port)]
    }

    mutating func becomeReady(now: Int64) -> [Action] {
        phase = .ready
        failedAttempts = 0
        lastError = nil
        var bytes: [UInt8] = []
        bytes += subscribeCommands(for: subscriptions.sorted(), now: now)
        for (id, command) in held {
            command.encode(into: &bytes)
            outstanding.append(Outstanding(expected: .command(id), sentAt: now))
        }
        held = []
        return bytes.isEmpty ? [.ready] : [.ready, .write(bytes)]
    }

    /// Ends the current connection with `error`: fails what it carried, and schedules the next attempt.
    mutating func lose(_ error: RedisError, now: Int64, closeSocket: Bool) -> [Action] {
        var actions = failAll(error)
        if closeSocket { actions.append(.closeConnection) }
        confirmations = FIFO()
        confirmed = []
        connectionInSubscriberMode = false
        lastError = error
        phase = .waitingToReconnect
        phaseDeadline = now + backoff()
        failedAttempts += 1
        actions.append(.disconnected(error))
        return actions
    }

    /// The wait before the next attempt: exponential in the failed attempts up to the cap,
    /// the upper half of it at random ("equal jitter") so nodes that lost Redis together do
    /// not come back together.
    mutating func backoff() -> Int64 {
        let shift = min(failedAttempts, 20)
        let base = min(configuration.reconnectMaxDelay, configuration.reconnectInitialDelay << shift)
        let half = max(base / 2, 0)
        return half + Int64(random.next() % UInt64(half + 1))
    }

    mutating func failAll(_ error: RedisError) -> [Action] {
        var actions: [Action] = []
        while let entry = outstanding.popFirst() {
            if case .command(let id) = entry.expected { actions.append(.fail(id, error)) }
        }
        for (id, _) in held { actions.append(.fail(id, error)) }
        held = []
        return actions
    }
}
