import ParleyWire
import Synchronization

/// A Redis client on one ``EventLoop``: commands (pipelined: each is written as soon as it is
/// sent, replies are matched in order) on one connection, and pub/sub on a second, dedicated
/// connection opened at the first ``subscribe(_:handler:)``.
///
/// Both connections log in and select the database from the ``RedisURL``, reconnect by
/// themselves with backoff and jitter, and the subscriber connection subscribes again to
/// everything it held. Commands sent while a connection is being opened wait for it; those
/// sent while it waits to reconnect fail at once with ``RedisError/Code/notConnected``.
///
/// Any thread may call any method. Call ``close()`` when done: it closes both sockets and
/// fails whatever is outstanding; after it no handler is called.
public final class RedisClient: Sendable {
    /// The loop both connections live on.
    public let loop: EventLoop
    private let commands: RedisConnectionDriver
    private let subscriber: RedisConnectionDriver
    private let nextID = Atomic<UInt64>(1)

    /// Creates a client and starts connecting its command connection.
    public init(configuration: RedisConnectionConfiguration, on loop: EventLoop) {
        var seeds = SystemRandomNumberGenerator()
        self.loop = loop
        self.commands = RedisConnectionDriver(configuration: configuration, loop: loop, seed: seeds.next())
        var subscriberConfiguration = configuration
        // A subscriber may rightly wait for ever for a message; the keepalive PING finds a dead peer.
        subscriberConfiguration.replyTimeout = configuration.replyTimeout ?? configuration.connectTimeout
        self.subscriber = RedisConnectionDriver(configuration: subscriberConfiguration, loop: loop, seed: seeds.next())
        loop.execute { [commands] in commands.start() }
    }

    /// Creates a client for `url` with default timeouts.
    public convenience init(url: RedisURL, on loop: EventLoop) {
        self.init(configuration: RedisConnectionConfiguration(url: url), on: loop)
    }

    /// Sends `command` and returns its reply. A `-ERR` reply throws ``RedisError/Code/serverError``.
    /// Cancelling the task fails the call at once with ``RedisError/Code/cancelled``; if the
    /// command was already written its reply is still read and dropped, so later replies stay matched.
    public func send(_ command: RESPCommand) async throws(RedisError) -> RESPValue {
        try await send(command, through: commands)
    }

    /// Sends `command` without waiting, calling `completion` on the loop with its reply. Calls
    /// made one after another (from one thread, or ordered by a lock) are written in that
    /// order, which a caller that must keep its publishes in order relies on.
    public func send(_ command: RESPCommand, completion: @escaping @Sendable (Result<RESPValue, RedisError>) -> Void) {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        loop.execute { [commands] in commands.send(command, id: id, completion) }
    }

    /// `PUBLISH channel payload`; returns how many subscribers received it (on this Redis node).
    @discardableResult
    public func publish(_ payload: [UInt8], to channel: [UInt8]) async throws(RedisError) -> Int {
        let reply = try await send(RESPCommand([Array("PUBLISH".utf8), channel, payload]))
        guard case .integer(let receivers) = reply else {
            throw RedisError(.unexpectedReply, "PUBLISH answered \(reply)")
        }
        return Int(receivers)
    }

    /// Subscribes the subscriber connection to `targets`, calling `handler` on the loop for
    /// each message they deliver, and returns once the server confirmed every one of them.
    /// The subscriptions outlive reconnects until ``unsubscribe(_:)`` or ``close()``. If the
    /// connection is lost or refused (a wrong password) before the server confirmed, this
    /// throws that error, and the subscriptions are still renewed when it reconnects.
    public func subscribe(
        _ targets: [RedisSubscriptionTarget],
        handler: @escaping @Sendable (RedisPubSubMessage) -> Void
    ) async throws(RedisError) {
        guard !targets.isEmpty else { throw RedisError(.invalidArgument, "subscribe needs a channel or pattern") }
        let result: Result<Void, RedisError> = await withCheckedContinuation { continuation in
            loop.execute { [subscriber] in
                subscriber.subscribe(targets, handler: handler) { continuation.resume(returning: $0) }
            }
        }
        try result.get()
    }

    /// Subscribes to channels by name (see ``subscribe(_:handler:)``).
    public func subscribe(
        channels: [String],
        handler: @escaping @Sendable (RedisPubSubMessage) -> Void
    ) async throws(RedisError) {
        try await subscribe(channels.map { .channel(Array($0.utf8)) }, handler: handler)
    }

    /// Drops subscriptions; their handler is not called again.
    public func unsubscribe(_ targets: [RedisSubscriptionTarget]) {
        loop.execute { [subscriber] in subscriber.unsubscribe(targets) }
    }

    /// Calls `observer` on the loop whenever the command connection (`subscriber: false`) or
    /// the subscriber connection (`true`) becomes ready or is lost (with the reason); a
    /// connection already ready is reported at once.
    public func observeConnections(_ observer: @escaping @Sendable (_ subscriber: Bool, _ ready: Bool, RedisError?) -> Void) {
        loop.execute { [commands, subscriber] in
            commands.onConnectionChange = { observer(false, $0, $1) }
            subscriber.onConnectionChange = { observer(true, $0, $1) }
            // A connection that became ready before the observer was set is reported now.
            if commands.phase == .ready { observer(false, true, nil) }
            if subscriber.phase == .ready { observer(true, true, nil) }
        }
    }

    /// Closes both connections and fails everything outstanding with ``RedisError/Code/clientClosed``.
    public func close() {
        loop.execute { [commands, subscriber] in
            commands.close()
            subscriber.close()
        }
    }

    /// Set by a task's cancellation handler, read on the loop.
    private final class CancellationFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private func send(_ command: RESPCommand, through driver: RedisConnectionDriver) async throws(RedisError) -> RESPValue {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let cancelled = CancellationFlag()
        let result: Result<RESPValue, RedisError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.execute { [driver] in
                    // A cancel that ran before this hop found nothing to cancel: honour it here.
                    if cancelled.value.load(ordering: .acquiring) {
                        continuation.resume(returning: .failure(RedisError(.cancelled, "the command was cancelled")))
                        return
                    }
                    driver.send(command, id: id) { continuation.resume(returning: $0) }
                }
            }
        } onCancel: {
            cancelled.value.store(true, ordering: .releasing)
            loop.execute { [driver] in driver.cancel(id) }
        }
        return try result.get()
    }
}
