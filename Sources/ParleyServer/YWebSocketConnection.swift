import ParleyDocs
import ParleyNet
import ParleyWire
import Synchronization

/// One y-websocket connection: queues the socket's messages in a bounded inbox and runs the
/// transport-free `YWebSocketSession` over them, one message at a time.
///
/// A peer that sends faster than its session handles updates is slowed down, not buffered:
/// above the backlog's soft bounds the socket stops being read (TCP pushes back on the
/// sender), and reading resumes once the session has caught up. A backlog that passes the
/// hard bound anyway (deflated frames) closes the connection with 1008. The bounds are the
/// app's `limits.document_backlog_bytes` and `…_messages`. When access ends (`revoke`), what
/// is queued is dropped, not handled.
final class YWebSocketConnection: Sendable {
    /// A message from the peer.
    enum Message: Sendable {
        case binary([UInt8])
        case text
    }

    private typealias Next = YWebSocketInbox<Message>.Next

    /// The inbox and the session's wait for it, shared by the loop (producer) and the task.
    private struct Inbox {
        var state: YWebSocketInbox<Message>
        var waiter: CheckedContinuation<Next, Never>?

        /// The waiting session's continuation, when the inbox says to hand it something.
        mutating func waiter(if handOver: Bool) -> CheckedContinuation<Next, Never>? {
            guard handOver else { return nil }
            defer { waiter = nil }
            return waiter
        }
    }

    /// A process-unique id, for the participant's connection id and the registry.
    let id: String
    private static let counter = Atomic<UInt64>(0)
    /// The socket.
    let socket: WebSocket
    private let inbox: Mutex<Inbox>
    private let limits: YWebSocketBacklog<Message>.Limits

    /// Takes over the socket's callbacks; call on the socket's loop, in its open handler,
    /// so no message is missed.
    init(socket: WebSocket, limits: YWebSocketBacklog<Message>.Limits = .init()) {
        id = String(Self.counter.wrappingAdd(1, ordering: .relaxed).newValue)
        self.socket = socket
        self.limits = limits
        inbox = Mutex(Inbox(state: YWebSocketInbox(limits: limits)))
        socket.onMessage = { [self] socket, message in
            switch message {
            case .binary(let bytes): receive(.binary(bytes), bytes: bytes.count, socket: socket)
            case .text: receive(.text, bytes: 0, socket: socket)
            }
        }
        socket.onClose = { [self] _, _, _ in
            let waiter = inbox.withLock { inbox in inbox.waiter(if: inbox.state.end()) }
            waiter?.resume(returning: .closed)
        }
    }

    /// Ends the connection because its user's access ended: closes the socket at once with
    /// 4410 and `reason`, drops the messages still queued (they are not handled), and stops
    /// handling messages (from any thread).
    func revoke(reason: String) {
        let (first, waiter) = inbox.withLock { inbox -> (Bool, CheckedContinuation<Next, Never>?) in
            let (first, handOver) = inbox.state.revoke(reason: reason)
            return (first, inbox.waiter(if: handOver))
        }
        guard first else { return }
        socket.close(code: YWebSocketSession.revokedCode, reason: reason)
        syncReading()  // the emptied backlog is unpaused: the peer's close answer gets read
        waiter?.resume(returning: .revoked(reason: reason))
    }

    /// Opens the session, then handles messages in arrival order until either side closes.
    /// While open, the connection is in `registry` and receives the document's broadcasts.
    /// A refused message is logged and counted in `refusals`, which may hold the close back.
    func run(_ initial: YWebSocketSession, registry: YWebSocketRegistry, refusals: DocumentRefusals? = nil) async {
        var session = initial
        var checkedAt = registry.revocationCount
        perform(await session.open())
        // A revocation that ran while access was being checked may have missed this
        // connection (it was not registered yet): check again until none interferes.
        while session.state == .open,
            !registry.add(
                self, app: session.service.app, documentID: session.documentID,
                participant: session.participant, ownerRoomID: session.ownerRoomID,
                checkedAt: checkedAt)
        {
            checkedAt = registry.revocationCount
            perform(await session.recheckAccess(reason: "access_ended"))
        }
        defer { registry.remove(self, app: session.service.app, documentID: session.documentID) }
        while session.state == .open {
            switch await next() {
            case .message(.binary(let bytes)):
                let actions = await session.receive(bytes)
                if let refusal = session.refusal, let refusals {
                    let delay = refusals.record(
                        refusal, app: session.service.app, document: session.documentID,
                        user: session.participant.userID, connection: id, message: bytes)
                    // The session is closed; waiting here only delays this connection's close.
                    if delay > .zero { try? await Task.sleep(for: delay) }
                }
                perform(actions)
            case .message(.text): perform(await session.receiveText())
            case .closed: await session.close()
            case .revoked(let reason): _ = await session.revoke(reason: reason)  // the socket is already closing with 4410
            }
        }
        await session.close()
        inbox.withLock { $0.state.discard() }
    }

    /// Loop: queues a message for the session, or hands it over if the session is waiting.
    private func receive(_ message: Message, bytes: Int, socket: WebSocket) {
        let (waiter, arrival) = inbox.withLock { inbox -> (CheckedContinuation<Next, Never>?, YWebSocketInbox<Message>.Arrival) in
            let arrival = inbox.state.receive(message, bytes: bytes)
            return (inbox.waiter(if: arrival == .handOver), arrival)
        }
        switch arrival {
        case .handOver: waiter?.resume(returning: .message(message))
        case .queued, .dropped: break
        case .pause: syncReading()
        case .overflow:
            socket.close(code: .policyViolation, reason: "more than \(limits.closeBytes) bytes of unhandled messages")
        }
    }

    /// The next event, waiting for one; resumes reading once the backlog has shrunk enough.
    private func next() async -> Next {
        await withCheckedContinuation { (continuation: CheckedContinuation<Next, Never>) in
            let taken = inbox.withLock { inbox -> (next: Next, resume: Bool)? in
                if let taken = inbox.state.take() { return taken }
                inbox.waiter = continuation
                return nil
            }
            guard let taken else { return }
            if taken.resume { syncReading() }
            continuation.resume(returning: taken.next)
        }
    }

    /// Makes the socket's reading match the backlog's advice as it stands when this runs on
    /// the loop. Applying the current state, not the transition that asked for it, keeps a
    /// resume from the session and a pause from the loop correct in whatever order they land.
    private func syncReading() {
        let apply: @Sendable () -> Void = { [self] in
            if inbox.withLock({ $0.state.isPaused }) { socket.pauseReading() } else { socket.resumeReading() }
        }
        if socket.loop.inEventLoop { apply() } else { socket.loop.execute(apply) }
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
