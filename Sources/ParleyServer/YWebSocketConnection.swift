import ParleyDocs
import ParleyNet
import ParleyWire
import Synchronization

/// One y-websocket connection: queues the socket's messages in a bounded backlog and runs the
/// transport-free `YWebSocketSession` over them, one message at a time.
///
/// A peer that sends faster than its session handles updates is slowed down, not buffered:
/// above the backlog's soft bounds the socket stops being read (TCP pushes back on the
/// sender), and reading resumes once the session has caught up. A backlog that passes the
/// hard bound anyway (deflated frames) closes the connection with 1008. The bounds are the
/// app's `limits.document_backlog_bytes` and `…_messages`.
final class YWebSocketConnection: Sendable {
    enum Event: Sendable {
        case binary([UInt8])
        case text
        case closed
        /// Access ended; what was queued has been dropped.
        case revoked(reason: String)
    }

    /// The backlog and the session's wait for it, shared by the loop (producer) and the task.
    private struct Inbox {
        var backlog: YWebSocketBacklog<Event>
        var waiter: CheckedContinuation<Event, Never>?
        var closed = false
        /// Set once access ended: nothing queued or arriving later is handled.
        var revokedReason: String?
    }

    /// A process-unique id, for the participant's connection id and the registry.
    let id: String
    private static let counter = Atomic<UInt64>(0)
    /// The socket.
    let socket: WebSocket
    private let inbox: Mutex<Inbox>
    private let limits: YWebSocketBacklog<Event>.Limits

    /// Takes over the socket's callbacks; call on the socket's loop, in its open handler,
    /// so no message is missed.
    init(socket: WebSocket, limits: YWebSocketBacklog<Event>.Limits = .init()) {
        id = String(Self.counter.wrappingAdd(1, ordering: .relaxed).newValue)
        self.socket = socket
        self.limits = limits
        inbox = Mutex(Inbox(backlog: YWebSocketBacklog(limits: limits)))
        socket.onMessage = { [self] socket, message in
            switch message {
            case .binary(let bytes): deliver(.binary(bytes), bytes: bytes.count, socket: socket)
            case .text: deliver(.text, bytes: 0, socket: socket)
            }
        }
        socket.onClose = { [self] socket, _, _ in deliver(.closed, bytes: 0, socket: socket) }
    }

    /// Ends the connection because its user's access ended: closes the socket at once with
    /// 4410 and `reason`, drops the messages still queued (they are not handled), and stops
    /// handling messages (from any thread).
    func revoke(reason: String) {
        let (first, waiter) = inbox.withLock { inbox -> (Bool, CheckedContinuation<Event, Never>?) in
            guard inbox.revokedReason == nil else { return (false, nil) }
            inbox.revokedReason = reason
            inbox.closed = true
            // A fresh backlog is not paused: the socket is read again, so the peer's answer to
            // the close arrives (and is dropped) without waiting for the close timeout.
            inbox.backlog = YWebSocketBacklog(limits: limits)
            let waiter = inbox.waiter
            inbox.waiter = nil
            return (true, waiter)
        }
        guard first else { return }
        socket.close(code: YWebSocketSession.revokedCode, reason: reason)
        syncReading()
        waiter?.resume(returning: .revoked(reason: reason))
    }

    /// Opens the session, then handles messages in arrival order until either side closes.
    /// While open, the connection is in `registry` and receives the document's broadcasts.
    func run(_ initial: YWebSocketSession, registry: YWebSocketRegistry) async {
        var session = initial
        var checkedAt = registry.revocationCount
        perform(await session.open())
        // A revocation that ran while access was being checked may have missed this
        // connection (it was not registered yet): check again until none interferes.
        while session.state == .open, !registry.add(self, app: session.service.app, documentID: session.documentID,
                                                     participant: session.participant, ownerRoomID: session.ownerRoomID,
                                                     checkedAt: checkedAt) {
            checkedAt = registry.revocationCount
            perform(await session.recheckAccess(reason: "access_ended"))
        }
        defer { registry.remove(self, app: session.service.app, documentID: session.documentID) }
        while session.state == .open {
            switch await next() {
            case .binary(let bytes): perform(await session.receive(bytes))
            case .text: perform(await session.receiveText())
            case .closed: await session.close()
            case .revoked(let reason): _ = await session.revoke(reason: reason)  // the socket is already closing with 4410
            }
        }
        await session.close()
        discardBacklog()
    }

    /// Loop: queues an event for the session, or hands it over if the session is waiting.
    private func deliver(_ event: Event, bytes: Int, socket: WebSocket) {
        let (waiter, pressure) = inbox.withLock { inbox -> (CheckedContinuation<Event, Never>?, YWebSocketBacklog<Event>.Pressure) in
            guard !inbox.closed else { return (nil, .none) }
            if case .closed = event { inbox.closed = true }
            if let waiter = inbox.waiter {
                inbox.waiter = nil
                return (waiter, .none)
            }
            if case .closed = event {
                // The end always gets through; what waits before it is dropped by the session.
                _ = inbox.backlog.append(event, bytes: 0)
                return (nil, .none)
            }
            let pressure = inbox.backlog.append(event, bytes: bytes)
            // Past the hard bound the backlog was dropped; the session sees only the end.
            if pressure == .overflow { inbox.closed = true }
            return (nil, pressure)
        }
        waiter?.resume(returning: event)
        switch pressure {
        case .none: break
        case .pause: syncReading()
        case .overflow:
            socket.close(code: .policyViolation, reason: "more than \(limits.closeBytes) bytes of unhandled messages")
        }
    }

    /// The next event, waiting for one; resumes reading once the backlog has shrunk enough.
    private func next() async -> Event {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
            let (taken, resume) = inbox.withLock { inbox -> (Event?, Bool) in
                if let reason = inbox.revokedReason { return (.revoked(reason: reason), false) }
                if let (event, resume) = inbox.backlog.next() { return (event, resume) }
                if inbox.closed { return (.closed, false) }
                inbox.waiter = continuation
                return (nil, false)
            }
            if resume { syncReading() }
            if let taken { continuation.resume(returning: taken) }
        }
    }

    /// Makes the socket's reading match the backlog's advice as it stands when this runs on
    /// the loop. Applying the current state, not the transition that asked for it, keeps a
    /// resume from the session and a pause from the loop correct in whatever order they land.
    private func syncReading() {
        let apply: @Sendable () -> Void = { [self] in
            if inbox.withLock({ $0.backlog.isPaused }) { socket.pauseReading() } else { socket.resumeReading() }
        }
        if socket.loop.inEventLoop { apply() } else { socket.loop.execute(apply) }
    }

    /// Frees whatever arrived after the session ended.
    private func discardBacklog() {
        inbox.withLock { inbox in
            inbox.closed = true
            inbox.backlog.removeAll()
        }
    }

    private func perform(_ actions: [YWebSocketAction]) {
        for action in actions {
            switch action {
            case .send(let bytes): socket.send(binary: bytes)
            case .close(let code, let reason): socket.close(code: code, reason: reason)
            }
        }
    }
}
