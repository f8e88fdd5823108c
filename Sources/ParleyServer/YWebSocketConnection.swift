import ParleyDocs
import ParleyNet
import ParleyWire
import Synchronization

/// One y-websocket connection: turns the socket's callbacks into an ordered stream and runs
/// the transport-free `YWebSocketSession` over it, one message at a time.
final class YWebSocketConnection: Sendable {
    private enum Event: Sendable {
        case binary([UInt8])
        case text
        case closed
        case revoked
    }

    /// A process-unique id, for the participant's connection id and the registry.
    let id: String
    private static let counter = Atomic<UInt64>(0)
    /// The socket.
    let socket: WebSocket
    private let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    /// Set once access ended; messages still queued are then dropped, not handled.
    private let revokedReason = Mutex<String?>(nil)

    /// Takes over the socket's callbacks; call on the socket's loop, in its open handler,
    /// so no message is missed.
    init(socket: WebSocket) {
        id = String(Self.counter.wrappingAdd(1, ordering: .relaxed).newValue)
        self.socket = socket
        let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        self.events = events
        self.continuation = continuation
        socket.onMessage = { _, message in
            switch message {
            case .binary(let bytes): continuation.yield(.binary(bytes))
            case .text: continuation.yield(.text)
            }
        }
        socket.onClose = { _, _, _ in
            continuation.yield(.closed)
            continuation.finish()
        }
    }

    /// Ends the connection because its user's access ended: closes the socket at once with
    /// 4410 and `reason`, and stops handling messages (from any thread).
    func revoke(reason: String) {
        let first = revokedReason.withLock { current in
            guard current == nil else { return false }
            current = reason
            return true
        }
        guard first else { return }
        socket.close(code: YWebSocketSession.revokedCode, reason: reason)
        continuation.yield(.revoked)
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
        while session.state == .open, !registry.add(self, app: session.service.app, documentID: session.documentID,
                                                     participant: session.participant, ownerRoomID: session.ownerRoomID,
                                                     checkedAt: checkedAt) {
            checkedAt = registry.revocationCount
            perform(await session.recheckAccess(reason: "access_ended"))
        }
        defer { registry.remove(self, app: session.service.app, documentID: session.documentID) }
        for await event in events {
            guard session.state == .open else { break }
            if let reason = revokedReason.withLock({ $0 }) {
                _ = await session.revoke(reason: reason)  // the socket is already closing with 4410
                break
            }
            switch event {
            case .binary(let bytes):
                let actions = await session.receive(bytes)
                if let refusal = session.refusal, let refusals {
                    let delay = refusals.record(refusal, app: session.service.app, document: session.documentID,
                                                user: session.participant.userID, connection: id, message: bytes)
                    // The session is closed; waiting here only delays this connection's close.
                    if delay > .zero { try? await Task.sleep(for: delay) }
                }
                perform(actions)
            case .text: perform(await session.receiveText())
            case .closed: await session.close()
            case .revoked: break
            }
        }
        await session.close()
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
