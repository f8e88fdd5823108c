import CLinux
import Glibc
import ParleySystem
import ParleyWire

/// A non-blocking TCP socket owned by one ``EventLoop`` for its whole life.
///
/// Threading contract: every method and property must be used on ``loop``'s thread (the
/// handler callbacks already run there); from elsewhere, hop with `connection.loop.execute`.
/// The class is `Sendable` only so it can be carried back to its loop that way. Debug builds
/// check the contract on writes, flushes, closes and read pausing (`EventLoop.assertInEventLoop`).
///
/// Reads land in the loop's pooled buffer and go straight to the ``handler``. Writes are
/// queued (``SharedBytes`` chunks, shared ones are only retained) and flushed once per loop
/// iteration with one `sendmsg` gathering up to IOV_MAX chunks, so a burst of messages to
/// one peer costs one system call. Write interest is registered only while the socket
/// buffer is full. The queue is bounded by ``maxOutboundBytes``.
public final class Connection: @unchecked Sendable {
    // @unchecked: all mutable state is confined to `loop`'s thread (see the contract above).

    /// The loop that owns this connection.
    public let loop: EventLoop
    /// The protocol layer receiving this connection's events; released after close.
    public var handler: (any ConnectionHandler)?
    /// The most bytes the outbound queue may hold before ``ConnectionHandler/connectionDidExceedOutboundLimit(_:)``
    /// fires (a single chunk larger than this is still accepted into an empty queue).
    public var maxOutboundBytes: Int = 1 << 20
    /// How long a graceful ``close()`` may take to flush and linger before the socket is
    /// closed regardless.
    public var closeTimeout: Duration = .seconds(5)
    /// Free slot for the layer above (e.g. the HTTP server's per-connection state).
    public var userData: AnyObject?
    /// Runs once when the socket is closed, before the handler hears of it (a server's
    /// connection counts are released here, whichever handler the connection has by then).
    var closeObserver: (() -> Void)?

    /// The socket; nil once closed. C calls borrow its number through ``withSocket(_:)``.
    private var socket: FileDescriptor?
    private var token: UInt64 = 0
    var state: State
    /// Bytes waiting for the socket; plaintext waiting for encryption when ``tls`` is set.
    var outbound = OutboundQueue()
    /// Set while TLS runs over the socket (see ``startTLS(context:role:handshakeTimeout:)``).
    var tls: ConnectionTLS?
    private var interest: SelectorInterest = []
    private var readPaused = false
    var writeBlocked = false
    private var flushQueued = false
    /// The loop pass in which this connection last sent a write at once.
    private var sentAtOnceIn: UInt64 = .max
    private var sawEOF = false
    private var lastActivity: UInt64
    private var idleNanoseconds: UInt64 = 0
    private var idleTimer: TimerHandle?
    private var phaseTimer: TimerHandle?
    private var connectCompletion: ((Result<Connection, NetError>) -> Void)?

    enum State { case connecting, open, closing, lingering, closed }

    init(socket: consuming FileDescriptor, loop: EventLoop, connecting: Bool) {
        self.socket = consume socket
        self.loop = loop
        self.state = connecting ? .connecting : .open
        self.lastActivity = loop.now
    }

    // MARK: Status

    /// Whether the connection is established and accepts writes.
    public var isOpen: Bool { state == .open }
    /// Whether the socket has been closed.
    public var isClosed: Bool { state == .closed }
    /// Bytes queued and not yet written.
    public var outboundBytes: Int { outbound.byteCount + (tls?.ciphertext.byteCount ?? 0) }
    /// Whether the socket buffer is full and output is waiting for the peer to read.
    public var isWriteBlocked: Bool { writeBlocked }

    /// The peer's address, if the socket still knows it.
    public var remoteAddress: SocketAddress? {
        guard state != .closed else { return nil }
        return socket?.peerAddress
    }

    /// The local address, if the socket still knows it.
    public var localAddress: SocketAddress? {
        guard state != .closed else { return nil }
        return socket?.localAddress
    }

    /// Closes the connection if no bytes move in either direction for this long; nil disables.
    /// Checked lazily: one timer per connection that re-arms itself only when it fires.
    public var idleTimeout: Duration? {
        didSet { armIdleTimer() }
    }

    // MARK: Registration

    /// Registers an accepted or connecting socket with the loop. Loop thread.
    func activate() throws(NetError) {
        loop.assertInEventLoop("Connection.activate")
        let initial: SelectorInterest = state == .connecting ? .write : .read
        try withSocket { fd throws(NetError) in token = try loop.register(.connection(self), fd: fd, interest: initial) }
        interest = initial
    }

    /// Closes the socket of a connection whose registration failed (nothing to deregister,
    /// nobody to tell).
    func discard() {
        state = .closed
        try? socket.take()?.close()
    }

    /// Lends the socket's number to `body` for one C call; nil once the socket is closed.
    /// `body` must not close or replace the socket.
    @inline(__always)
    func withSocket<Result, Failure: Error>(_ body: (Int32) throws(Failure) -> Result) throws(Failure) -> Result? {
        try socket?.withRawValue(body)
    }

    /// One non-blocking call on the socket, EINTR retried; a closed socket fails with EBADF
    /// as the number would have.
    @inline(__always)
    private func socketCall<Count: FixedWidthInteger & SignedInteger>(
        _ name: StaticString, _ call: (Int32) -> Count
    ) throws(SystemCallError) -> IOResult<Count> {
        let result = try withSocket { fd throws(SystemCallError) in try SystemCall.nonBlocking(name) { call(fd) } }
        guard let result else { throw SystemCallError(call: name.description, errno: EBADF) }
        return result
    }

    // MARK: Writing

    /// Queues shared bytes (retained, not copied). Returns false if the connection is not
    /// open or the outbound bound was hit (the handler's overflow hook has run).
    @discardableResult
    public func write(_ chunk: SharedBytes) -> Bool {
        write(UnsafeRawBufferPointer(start: chunk.baseAddress, count: chunk.count), queuedAs: { chunk })
    }

    /// Queues a copy of `bytes`. Returns false if not open or over the outbound bound.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Queues a copy of `bytes`. Returns false if not open or over the outbound bound.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        write(bytes, queuedAs: { SharedBytes(bytes) })
    }

    /// The one write path: the kernel first (see ``sendAtOnce(_:)``); whatever has to wait
    /// joins the queue as `chunk()`, which is built only then.
    @inline(__always)
    private func write(_ bytes: UnsafeRawBufferPointer, queuedAs chunk: () -> SharedBytes) -> Bool {
        loop.assertInEventLoop("Connection.write")
        guard state == .open, !bytes.isEmpty else { return state == .open }
        if tls != nil { return queuePlaintext(bytes.count, chunk) }
        if let written = sendAtOnce(bytes) {
            guard written < bytes.count else { return true }
            guard state == .open else { return false }
            // Queued whole and consumed, so the rest counts as started: dropping unsent output
            // (a subscriber that fell behind) must not cut a frame the peer has half of.
            outbound.append(chunk())
            outbound.consume(written)
            return true
        }
        guard admits(bytes.count) else { return false }
        outbound.append(chunk())
        requestFlush()
        return true
    }

    /// Writes queued bytes now rather than at the end of the loop iteration.
    public func flush() {
        loop.assertInEventLoop("Connection.flush")
        guard state == .open || state == .closing, !writeBlocked else { return }
        flushNow()
    }

    /// Drops queued chunks that have not started going out (a partly written chunk stays,
    /// keeping the stream's framing intact); returns the number of bytes dropped.
    @discardableResult
    public func discardQueuedOutput() -> Int { outbound.discardUnstarted() }

    func admits(_ count: Int) -> Bool {
        guard outbound.byteCount > 0, outbound.byteCount + count > maxOutboundBytes else { return true }
        // The bound is about a peer not reading, not about this iteration's batching.
        if !writeBlocked { flushNow() }
        guard state == .open else { return false }
        guard outbound.byteCount > 0, outbound.byteCount + count > maxOutboundBytes else { return true }
        handler?.connectionDidExceedOutboundLimit(self)
        return false
    }

    func requestFlush() {
        guard !flushQueued, !writeBlocked else { return }
        flushQueued = true
        loop.scheduleFlush(self)
    }

    /// Hands a write to the kernel straight from the caller's bytes when nothing is queued
    /// ahead of it: a fan-out then reaches its first subscribers while it is still working
    /// through the last, and the common case neither queues, retains nor copies. Only the
    /// first write of a loop pass goes out this way; later ones in the same pass are queued
    /// and leave together in one `sendmsg` at the end of the pass, and a blocked socket
    /// batches whatever piles up behind it.
    /// Returns how many bytes the kernel took (a short count leaves the socket write-blocked),
    /// or nil when the write must be queued whole: not first in the pass, something already
    /// queued, or a socket error, which is left to the deferred flush so that error handling
    /// never runs inside a caller's `write`.
    private func sendAtOnce(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard outbound.isEmpty, !writeBlocked, sentAtOnceIn != loop.iteration else { return nil }
        sentAtOnceIn = loop.iteration
        let outcome = try? socketCall("send") { clinux_send($0, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        guard let outcome else { return nil }
        guard case .processed(let written) = outcome else {
            setWriteBlocked(true)
            return 0
        }
        lastActivity = loop.now
        if written < bytes.count { setWriteBlocked(true) }
        return written
    }

    /// The loop's end-of-iteration flush.
    func flushScheduled() {
        flushQueued = false
        guard state == .open || state == .closing, !writeBlocked else { return }
        flushNow()
    }

    func flushNow() {
        if let tls {
            guard flushEncrypted(tls) else { return }
        } else {
            switch send(&outbound) {
            case .sent: break
            case .blocked:
                setWriteBlocked(true)
                return
            case .failed(let error):
                abort(error)
                return
            }
        }
        let wasBlocked = writeBlocked
        if wasBlocked { setWriteBlocked(false) }
        if state == .closing {
            beginLinger()
        } else if wasBlocked && state == .open {
            handler?.connectionDidDrain(self)
        }
    }

    /// How one ``send(_:)`` ended.
    enum SendOutcome {
        case sent, blocked
        case failed(NetError)
    }

    /// Writes `queue` to the socket until it is empty or the socket buffer is full. Touches
    /// nothing but `queue` and the activity time, so the caller reacts to the outcome.
    @inline(__always)
    func send(_ queue: inout OutboundQueue) -> SendOutcome {
        while !queue.isEmpty {
            let count = queue.gather(into: loop.iovecs)
            var expected = 0
            for i in 0..<count { expected += loop.iovecs[i].iov_len }
            let outcome: IOResult<Int>
            do {
                outcome = try socketCall("sendmsg") { fd in
                    if count == 1 {
                        return clinux_send(fd, loop.iovecs[0].iov_base, loop.iovecs[0].iov_len, Int32(MSG_NOSIGNAL))
                    }
                    var message = msghdr()
                    message.msg_iov = loop.iovecs.baseAddress
                    message.msg_iovlen = count
                    return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                }
            } catch {
                return .failed(NetError(error))
            }
            guard case .processed(let written) = outcome else { return .blocked }
            queue.consume(written)
            lastActivity = loop.now
            // A short write means the socket buffer is full: wait for writability.
            if written < expected { return .blocked }
        }
        return .sent
    }

    func setWriteBlocked(_ blocked: Bool) {
        writeBlocked = blocked
        updateInterest()
    }

    // MARK: Reading

    /// Stops reading from the socket (back-pressure); the kernel buffers, then the peer's
    /// sends block.
    public func pauseReading() {
        loop.assertInEventLoop("Connection.pauseReading")
        readPaused = true
        updateInterest()
    }

    /// Resumes reading after ``pauseReading()``.
    public func resumeReading() {
        loop.assertInEventLoop("Connection.resumeReading")
        readPaused = false
        updateInterest()
    }

    private func updateInterest() {
        guard state != .closed, state != .connecting else { return }
        var wanted: SelectorInterest = []
        let wantsRead = !sawEOF && (!readPaused || state == .closing || state == .lingering)
        if wantsRead { wanted.insert(.read) }
        if writeBlocked { wanted.insert(.write) }
        guard wanted != interest else { return }
        do {
            try withSocket { fd throws(NetError) in try loop.reregister(fd: fd, token: token, interest: wanted) }
            interest = wanted
        } catch {
            abort(error)
        }
    }

    /// One readiness report from the selector.
    @inline(__always)
    func handle(_ event: SelectorEvent) {
        if state == .connecting {
            finishConnecting()
            return
        }
        if event.readable && interest.contains(.read) { handleReadable() }
        guard state != .closed else { return }
        if event.writable && writeBlocked { flushNow() }
        guard state != .closed else { return }
        if event.hangup && !event.readable {
            let error = withSocket(clinux_socket_error) ?? EBADF
            abort(error != 0 ? NetError.fromErrno(error, "socket") : NetError(.connectionReset, "peer hung up"))
        }
    }

    private func handleReadable() {
        let buffer = loop.readBuffer
        var rounds = 0
        while true {
            let outcome: IOResult<Int>
            do {
                outcome = try socketCall("read") { read($0, buffer.baseAddress, buffer.count) }
            } catch {
                abort(NetError(error))
                return
            }
            guard case .processed(let n) = outcome else { return }
            if n > 0 {
                lastActivity = loop.now
                if state == .open, let handler {
                    if let tls {
                        receiveEncrypted(tls, UnsafeRawBufferPointer(start: buffer.baseAddress, count: n))
                    } else {
                        handler.connection(self, didRead: UnsafeRawBufferPointer(start: buffer.baseAddress, count: n))
                    }
                }
                guard state != .closed, interest.contains(.read) else { return }
                rounds += 1
                // A short read drained the socket; a full one may have left more, but after a
                // few rounds others get their turn (level-triggered: we will be told again).
                if n < buffer.count || rounds == 4 { return }
            } else {
                peerClosedSending()
                return
            }
        }
    }

    func peerClosedSending() {
        sawEOF = true
        updateInterest()
        switch state {
        case .open: handler?.connectionDidReachEOF(self)
        case .lingering: closeNow(nil)
        default: break
        }
    }

    // MARK: Closing

    /// Closes gracefully: stops delivering reads, flushes the queue, shuts down the sending
    /// side, then waits briefly for the peer's FIN (so a peer still sending does not get a
    /// reset that destroys our last response) before closing the socket. Bounded by
    /// ``closeTimeout``.
    public func close() {
        loop.assertInEventLoop("Connection.close")
        guard state == .open || state == .connecting else { return }
        if state == .connecting {
            abort(NetError(.closed, "closed while connecting"))
            return
        }
        state = .closing
        updateInterest()
        phaseTimer = loop.scheduleLocal(after: closeTimeout) { [self] in
            phaseTimer = nil
            closeNow(nil)
        }
        if outboundBytes == 0 { beginLinger() } else { requestFlush() }
    }

    private func beginLinger() {
        guard state == .closing else { return }
        // TLS says goodbye first; the flush that sends close_notify comes back here.
        if let tls, sendCloseNotify(tls) { return }
        state = .lingering
        _ = withSocket { shutdown($0, Int32(SHUT_WR)) }
        if sawEOF {
            closeNow(nil)
            return
        }
        updateInterest()
    }

    /// Closes the socket now, dropping queued output; the handler sees `error`.
    public func abort(_ error: NetError? = nil) {
        loop.assertInEventLoop("Connection.abort")
        guard state != .closed else { return }
        closeNow(error)
    }

    private func closeNow(_ error: NetError?) {
        guard state != .closed else { return }
        state = .closed
        idleTimer?.cancel()
        idleTimer = nil
        phaseTimer?.cancel()
        phaseTimer = nil
        withSocket { loop.deregister(fd: $0, token: token) }
        try? socket.take()?.close()
        outbound.removeAll()
        let error = error ?? tls?.failure
        tls?.handshakeTimer?.cancel()
        tls = nil
        let completion = connectCompletion
        connectCompletion = nil
        let handler = self.handler
        self.handler = nil
        userData = nil
        let observer = closeObserver
        closeObserver = nil
        observer?()
        if let completion {
            completion(.failure(error ?? NetError(.closed, "closed while connecting")))
        } else {
            handler?.connection(self, didCloseWith: error)
        }
    }

    // MARK: Idle timeout

    private func armIdleTimer() {
        idleTimer?.cancel()
        idleTimer = nil
        guard let timeout = idleTimeout, state != .closed else { return }
        idleNanoseconds = max(1_000_000, MonotonicClock.nanoseconds(timeout))
        scheduleIdleCheck(at: lastActivity &+ idleNanoseconds)
    }

    private func scheduleIdleCheck(at deadline: UInt64) {
        idleTimer = loop.scheduleLocal(deadline: deadline) { [self] in
            idleTimer = nil
            idleCheck()
        }
    }

    private func idleCheck() {
        guard state == .open || state == .closing else { return }
        let deadline = lastActivity &+ idleNanoseconds
        if loop.now >= deadline {
            if let handler {
                handler.connectionDidTimeOut(self)
                // The handler may keep the connection (a request still in progress): watch on.
                if (state == .open || state == .closing) && idleTimer == nil && idleTimeout != nil {
                    scheduleIdleCheck(at: loop.now &+ idleNanoseconds)
                }
            } else {
                abort(NetError(.timedOut, "idle"))
            }
        } else {
            scheduleIdleCheck(at: deadline)
        }
    }

    // MARK: Outgoing connections

    /// Opens a TCP connection to `address` from `loop`; `completion` runs on the loop with the
    /// open connection (set its handler there) or the error. Loop thread.
    public static func connect(
        to address: SocketAddress, on loop: EventLoop, timeout: Duration = .seconds(10),
        _ completion: @escaping (Result<Connection, NetError>) -> Void
    ) {
        let socket: FileDescriptor
        do {
            socket = try SocketAddress.openSocket(family: address.family)
        } catch {
            loop.executeLocal { completion(.failure(error)) }
            return
        }
        let started = socket.withRawValue { fd in
            _ = clinux_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            return Result { () throws(SystemCallError) in
                try SystemCall.retrying("connect") { address.withSockAddr { Glibc.connect(fd, $0, $1) } }
            }
        }
        if case .failure(let error) = started, error.errno != EINPROGRESS {
            try? socket.close()
            loop.executeLocal { completion(.failure(NetError(error, "connect \(address)"))) }
            return
        }
        let connection = Connection(socket: socket, loop: loop, connecting: true)
        connection.connectCompletion = completion
        do {
            try connection.activate()
        } catch {
            connection.connectCompletion = nil
            connection.discard()
            loop.executeLocal { completion(.failure(error)) }
            return
        }
        connection.phaseTimer = loop.scheduleLocal(after: timeout) { [connection] in
            connection.phaseTimer = nil
            connection.abort(NetError(.timedOut, "connect \(address)"))
        }
    }

    private func finishConnecting() {
        let error = withSocket(clinux_socket_error) ?? EBADF
        guard error == 0 else {
            abort(NetError.fromErrno(error, "connect"))
            return
        }
        phaseTimer?.cancel()
        phaseTimer = nil
        state = .open
        lastActivity = loop.now
        interest = .write
        updateInterest()
        let completion = connectCompletion
        connectCompletion = nil
        completion?(.success(self))
    }
}
