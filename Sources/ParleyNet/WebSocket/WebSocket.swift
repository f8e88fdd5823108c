import ParleyWire

/// An open WebSocket connection (server or client side) driving a ``WebSocketConnection``
/// state machine over a ``Connection`` (or, in tests, an ``EmbeddedChannel``).
///
/// Threading: ``send(text:)``, ``send(binary:)``, ``send(shared:)``, ``ping(_:)`` and
/// ``close(code:reason:)`` are safe from any thread (they hop to ``loop``). The callbacks
/// and ``userData`` belong to the loop: set them in the open handler (or the client's
/// completion), or via `loop.execute`. Callbacks run on the loop.
public final class WebSocket: ConnectionHandler, ChannelDriver, GracefulShutdown, @unchecked Sendable {
    // @unchecked: mutable state is confined to `loop`; public any-thread methods hop there.

    /// Connection-level settings taken from the route or client configuration.
    struct Settings {
        var pingInterval: Duration?
        var overflowCloseCode: WebSocketCloseCode
        var closeTimeout: Duration

        init(pingInterval: Duration?, overflowCloseCode: WebSocketCloseCode, closeTimeout: Duration) {
            self.pingInterval = pingInterval
            self.overflowCloseCode = overflowCloseCode
            self.closeTimeout = closeTimeout
        }

        init(_ route: WebSocketRouteOptions) {
            self.init(
                pingInterval: route.pingInterval, overflowCloseCode: route.overflowCloseCode,
                closeTimeout: route.closeTimeout)
        }
    }

    /// The loop this socket lives on.
    public let loop: EventLoop
    /// The subprotocol agreed in the handshake.
    public let subprotocol: String?
    /// Whether this end opened the connection (client role).
    public let isClient: Bool
    /// Whether permessage-deflate was agreed.
    public let isCompressed: Bool

    /// A complete message arrived. Loop.
    public var onMessage: ((WebSocket, WebSocketMessage) -> Void)?
    /// The connection is over: the peer's close code (1005 if none), the code this end
    /// failed with (1002, 1007, 1009...), or 1006 if TCP dropped without a close frame.
    /// Runs exactly once. Loop.
    public var onClose: ((WebSocket, WebSocketCloseCode, String) -> Void)?
    /// A pong arrived. Loop.
    public var onPong: ((WebSocket, [UInt8]) -> Void)?
    /// A ping arrived (already answered). Loop.
    public var onPing: ((WebSocket, [UInt8]) -> Void)?
    /// The outbound queue passed its bound; nil uses the default: drop what is queued, send
    /// a close frame with the configured overflow code and close. Loop.
    public var onOutboundOverflow: ((WebSocket) -> Void)?
    /// Free slot for the application (session, subscriptions...). Loop.
    public var userData: AnyObject?
    /// Receives the events instead of the `on…` closures when set; released after the close
    /// is reported. Loop.
    public var delegate: (any WebSocketDelegate)?

    let connection: any DriverChannel
    private var machine: WebSocketConnection
    private let settings: Settings
    private var closeReported = false
    private var closeTimer: TimerHandle?
    private var heartbeatTimer: TimerHandle?
    private var awaitingPong = false
    private var heardSincePing = false
    private weak var tracker: ConnectionTracker?

    init(
        connection: any DriverChannel, role: WebSocketConnection.Role, options: WebSocketOptions,
        subprotocol: String?, settings: Settings
    ) {
        self.connection = connection
        self.loop = connection.loop
        self.machine = WebSocketConnection(role: role, options: options)
        self.subprotocol = subprotocol
        self.isClient = role == .client
        self.isCompressed = options.deflate != nil
        self.settings = settings
    }

    // MARK: Status (loop)

    /// Whether messages can still be sent (no close frame sent or received). Loop.
    public var isOpen: Bool { machine.isOpen && connection.isOpen }
    /// Bytes waiting in the outbound queue. Loop.
    public var outboundBytes: Int { connection.outboundBytes }
    /// The peer's address. Loop.
    public var remoteAddress: SocketAddress? { connection.remoteAddress }

    // MARK: Sending (any thread)

    /// Sends a text message. Any thread.
    public func send(text: String) {
        connection.hop { [self] in
            guard machine.isOpen else { return }
            write(machine.send(text: text))
        }
    }

    /// Sends a text message given as UTF-8 bytes the caller knows are valid (e.g. JSON it
    /// encoded). On an uncompressed server socket the frame is built straight from the bytes
    /// (no `String` round trip). Any thread.
    public func send(utf8Text bytes: [UInt8]) {
        connection.hop { [self] in
            guard machine.isOpen else { return }
            if isClient || isCompressed {
                write(machine.send(text: String(decoding: bytes, as: UTF8.self)))
                return
            }
            var header: [UInt8] = []
            WebSocketFrame.appendHeader(opcode: .text, fin: true, rsv1: false, length: bytes.count, maskKey: nil, to: &header)
            let frame = SharedBytes(unsafeUninitializedCount: header.count + bytes.count) { target in
                header.withUnsafeBytes { target.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                bytes.withUnsafeBytes { source in
                    guard let base = source.baseAddress, !source.isEmpty else { return }
                    (target.baseAddress! + header.count).copyMemory(from: base, byteCount: source.count)
                }
            }
            connection.write(frame)
        }
    }

    /// Sends a binary message. Any thread.
    public func send(binary: [UInt8]) {
        connection.hop { [self] in
            guard machine.isOpen else { return }
            write(machine.send(binary: binary))
        }
    }

    /// Queues an already-encoded server frame (see ``serverTextFrame(_:)``), shared with
    /// other sockets without copying. Server sockets only (client frames must be masked).
    /// Any thread.
    public func send(shared frame: SharedBytes) {
        precondition(!isClient, "shared frames are unmasked server frames")
        if connection.isOnChannelThread {
            if machine.isOpen { connection.write(frame) }
        } else {
            connection.hop { [self] in if machine.isOpen { connection.write(frame) } }
        }
    }

    /// Sends one message split into frames of the given pieces (uncompressed; first frame
    /// text or binary, the rest continuations), e.g. to stream a large message. Any thread.
    public func send(fragments: [[UInt8]], binary: Bool) {
        connection.hop { [self] in
            guard machine.isOpen, !fragments.isEmpty else { return }
            var frames: [UInt8] = []
            for (index, piece) in fragments.enumerated() {
                let opcode: WebSocketOpcode = index == 0 ? (binary ? .binary : .text) : .continuation
                let key: UInt32? = isClient ? Digest.randomBytes(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : nil
                piece.withUnsafeBytes {
                    WebSocketFrame.encode(
                        opcode: opcode, fin: index == fragments.count - 1, payload: $0,
                        maskKey: key, into: &frames)
                }
            }
            write(frames)
        }
    }

    /// Drops queued frames that have not started going out (a partly written frame stays,
    /// so framing stays intact), e.g. before closing a consumer that fell behind. Loop.
    @discardableResult
    public func discardQueuedOutput() -> Int { connection.discardQueuedOutput() }

    /// Sends a ping. Any thread.
    public func ping(_ payload: [UInt8] = []) {
        connection.hop { [self] in
            guard machine.isOpen else { return }
            write(machine.ping(payload))
        }
    }

    /// Stops reading from the socket (back-pressure for a consumer that fell behind): the
    /// kernel's buffers fill, then the peer's sends block. Messages already decoded from the
    /// last read are still delivered. Any thread.
    public func pauseReading() {
        connection.hop { [self] in connection.pauseReading() }
    }

    /// Reads again after ``pauseReading()``. Any thread.
    public func resumeReading() {
        connection.hop { [self] in connection.resumeReading() }
    }

    /// Starts the closing handshake; the TCP connection closes when the peer answers (or
    /// after the close timeout). Any thread.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        connection.hop { [self] in closeOnLoop(code: code, reason: reason) }
    }

    /// Encodes a text message once as an unmasked, uncompressed server frame for fan-out.
    public static func serverTextFrame(_ text: String) -> SharedBytes {
        SharedBytes(WebSocketFrame.serverText(text))
    }

    /// Encodes a binary message once as an unmasked, uncompressed server frame for fan-out.
    public static func serverBinaryFrame(_ bytes: [UInt8]) -> SharedBytes {
        SharedBytes(WebSocketFrame.serverBinary(bytes))
    }

    // MARK: Loop internals

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        connection.write(bytes)
    }

    private func closeOnLoop(code: WebSocketCloseCode, reason: String) {
        guard machine.isOpen, connection.isOpen else { return }
        write(machine.close(code: code, reason: reason))
        closeTimer = connection.scheduleLocal(after: settings.closeTimeout) { [self] in
            closeTimer = nil
            report(code, reason)
            connection.close()
        }
    }

    func track(in tracker: ConnectionTracker) {
        self.tracker = tracker
        tracker.add(self)
    }

    /// Feeds bytes to the state machine and carries out its actions.
    ///
    /// Stops at the first action after the close was reported: one read can carry thousands
    /// of frames, and a write among their answers may overflow the outbound queue and close
    /// the socket, whose close handler may free whatever the other callbacks reach.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !closeReported else { return }
        heardSincePing = true
        let actions = machine.receive(bytes)
        for action in actions {
            guard !closeReported, connection.isOpen else { return }
            switch action {
            case .message(let message):
                if let delegate { delegate.webSocket(self, didReceive: message) } else { onMessage?(self, message) }
            case .write(let bytes):
                write(bytes)
            case .ping(let payload):
                if let delegate { delegate.webSocket(self, didReceivePing: payload) } else { onPing?(self, payload) }
            case .pong(let payload):
                awaitingPong = false
                if let delegate { delegate.webSocket(self, didReceivePong: payload) } else { onPong?(self, payload) }
            case .closed(let code, let reason):
                report(code, reason)
                connection.close()
            }
        }
    }

    private func report(_ code: WebSocketCloseCode, _ reason: String) {
        guard !closeReported else { return }
        closeReported = true
        closeTimer?.cancel()
        closeTimer = nil
        heartbeatTimer?.cancel()
        heartbeatTimer = nil
        let callback = onClose
        onClose = nil
        let delegate = self.delegate
        self.delegate = nil
        // Nothing may reach the layer above once it has heard the close: it is free to
        // release what these callbacks capture.
        onMessage = nil
        onPong = nil
        onPing = nil
        onOutboundOverflow = nil
        callback?(self, code, reason)
        delegate?.webSocket(self, didCloseWith: code, reason: reason)
    }

    // MARK: Heartbeat

    func startHeartbeat() {
        guard let interval = settings.pingInterval else { return }
        heartbeatTimer = connection.scheduleLocal(after: interval) { [weak self] in self?.heartbeat(interval) }
    }

    private func heartbeat(_ interval: Duration) {
        heartbeatTimer = nil
        guard machine.isOpen, connection.isOpen else { return }
        if awaitingPong && !heardSincePing {
            report(.abnormalClosure, "no answer to ping")
            connection.abort(NetError(.timedOut, "WebSocket ping timeout"))
            return
        }
        heardSincePing = false
        awaitingPong = true
        write(machine.ping())
        heartbeatTimer = connection.scheduleLocal(after: interval) { [weak self] in self?.heartbeat(interval) }
    }

    // MARK: ConnectionHandler

    public func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) { receive(bytes) }

    public func connectionDidReachEOF(_ connection: Connection) { channelDidReachEOF() }

    public func connectionDidExceedOutboundLimit(_ connection: Connection) { channelDidExceedOutboundLimit() }

    public func connection(_ connection: Connection, didCloseWith error: NetError?) { channelDidClose(error) }

    // MARK: ChannelDriver

    func channelDidRead(_ bytes: UnsafeRawBufferPointer) { receive(bytes) }

    func channelDidReachEOF() {
        report(.abnormalClosure, "connection closed without a close frame")
        connection.close()
    }

    func channelDidDrain() {}

    func channelDidTimeOut() { connection.abort(NetError(.timedOut, "idle")) }

    func channelDidExceedOutboundLimit() {
        if let hook = onOutboundOverflow {
            hook(self)
            return
        }
        connection.discardQueuedOutput()
        let code = settings.overflowCloseCode
        if machine.isOpen { write(machine.close(code: code, reason: "outbound queue full")) }
        report(code, "outbound queue full")
        connection.close()
    }

    func channelDidClose(_ error: NetError?) {
        report(.abnormalClosure, error?.description ?? "connection closed")
        tracker?.remove(self)
        userData = nil
    }

    // MARK: GracefulShutdown

    func beginGracefulShutdown() {
        if machine.isOpen && connection.isOpen {
            closeOnLoop(code: .goingAway, reason: "server shutting down")
        } else {
            connection.close()
        }
    }

    func forceClose() {
        report(.goingAway, "server shut down")
        connection.abort(NetError(.closed, "server shut down"))
    }
}
