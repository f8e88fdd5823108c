import ParleyWire

/// What a protocol driver (``WebSocket``, the HTTP client's exchange) needs of the byte
/// stream under it: a ``Connection`` in production, an ``EmbeddedChannel`` in tests.
///
/// Every member is used on the channel's thread (the connection's loop); ``hop(_:)`` gets
/// there from anywhere.
protocol DriverChannel: AnyObject {
    /// The loop the driver reports as its own.
    var loop: EventLoop { get }
    /// Whether the caller runs on the channel's thread. Any thread.
    var isOnChannelThread: Bool { get }
    /// Runs `work` on the channel's thread: at once when already there. Any thread.
    func hop(_ work: @escaping @Sendable () -> Void)
    /// Runs `task` after `delay` on the channel's clock.
    func scheduleLocal(after delay: Duration, _ task: @escaping () -> Void) -> TimerHandle

    var isOpen: Bool { get }
    var isClosed: Bool { get }
    var outboundBytes: Int { get }
    var isWriteBlocked: Bool { get }
    var remoteAddress: SocketAddress? { get }
    var idleTimeout: Duration? { get set }
    var maxOutboundBytes: Int { get set }

    @discardableResult func write(_ bytes: [UInt8]) -> Bool
    @discardableResult func write(_ chunk: SharedBytes) -> Bool
    @discardableResult func discardQueuedOutput() -> Int
    func pauseReading()
    func resumeReading()
    func close()
    func abort(_ error: NetError?)
}

/// The events a ``DriverChannel`` delivers to its driver (a ``ConnectionHandler`` without
/// the connection argument, so a driver can run over an ``EmbeddedChannel``).
protocol ChannelDriver: AnyObject {
    /// Bytes arrived; valid only during the call.
    func channelDidRead(_ bytes: UnsafeRawBufferPointer)
    /// The peer shut down its sending side.
    func channelDidReachEOF()
    /// Output that had filled the socket buffer has gone out.
    func channelDidDrain()
    /// A write would have passed the outbound bound and was dropped.
    func channelDidExceedOutboundLimit()
    /// No byte moved for the idle timeout.
    func channelDidTimeOut()
    /// The channel closed (nil: orderly). Exactly once, last.
    func channelDidClose(_ error: NetError?)
}
