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
    }

    /// A process-unique id, for the participant's connection id and the registry.
    let id: String
    private static let counter = Atomic<UInt64>(0)
    /// The socket.
    let socket: WebSocket
    private let events: AsyncStream<Event>

    /// Takes over the socket's callbacks; call on the socket's loop, in its open handler,
    /// so no message is missed.
    init(socket: WebSocket) {
        id = String(Self.counter.wrappingAdd(1, ordering: .relaxed).newValue)
        self.socket = socket
        let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        self.events = events
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

    /// Opens the session, then handles messages in arrival order until either side closes.
    /// While open, the connection is in `registry` and receives the document's broadcasts.
    func run(_ initial: YWebSocketSession, registry: YWebSocketRegistry) async {
        var session = initial
        perform(await session.open())
        if session.state == .open {
            registry.add(self, app: session.service.app, documentID: session.documentID, participant: session.participant)
        }
        defer { registry.remove(self, app: session.service.app, documentID: session.documentID) }
        for await event in events {
            guard session.state == .open else { break }
            switch event {
            case .binary(let bytes): perform(await session.receive(bytes))
            case .text: perform(await session.receiveText())
            case .closed: await session.close()
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
