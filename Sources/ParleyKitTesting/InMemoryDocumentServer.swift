import ParleyKit
import ParleyText
import Synchronization

/// A y-websocket server in memory, for tests of document sessions and editors without
/// sockets: one server replica per URL; answers sync step 1, sends its own, applies updates
/// and passes them on to the URL's other connections, and relays awareness.
/// ``setOnline(_:)`` takes the network away (connects fail, open connections drop).
public final class InMemoryDocumentServer: DocumentTransport {
    private struct Document {
        var replica = YDocument()
        var awareness = Awareness()
    }

    private struct Link {
        let url: String
        let sink: AsyncStream<DocumentFrame>.Continuation
    }

    private struct State {
        var documents: [String: Document] = [:]
        var links: [Int: Link] = [:]
        var nextID = 0
        var online = true
    }

    private let state = Mutex(State())

    /// Creates an empty server.
    public init() {}

    /// The server's text of the document at `url`.
    public func text(of url: String) -> String { state.withLock { $0.documents[url]?.replica.text(root: DocumentReplica.textRoot) ?? "" } }

    /// Takes the network away (every connection drops, connecting fails) or gives it back.
    public func setOnline(_ online: Bool) {
        let dropped = state.withLock { state -> [Link] in
            state.online = online
            guard !online else { return [] }
            defer { state.links = [:] }
            return Array(state.links.values)
        }
        for link in dropped {
            link.sink.yield(.closed(code: 1006, reason: "network down (test)"))
            link.sink.finish()
        }
    }

    /// Opens a document connection (see ``DocumentTransport``).
    public func connect(url: String, token: String, appID: String?) async throws(ParleyError) -> any DocumentConnection {
        let (frames, sink) = AsyncStream<DocumentFrame>.makeStream()
        let id: Int? = state.withLock { state in
            guard state.online else { return nil }
            state.nextID += 1
            state.links[state.nextID] = Link(url: url, sink: sink)
            let document = state.documents[url, default: Document()]
            state.documents[url] = document
            sink.yield(.binary(YSyncMessage.syncStep1(stateVector: document.replica.encodeStateVector()).encode()))
            if !document.awareness.states.isEmpty {
                sink.yield(.binary(YSyncMessage.awareness(document.awareness.fullUpdate()).encode()))
            }
            return state.nextID
        }
        guard let id else { throw ParleyError(.network, "offline (test)") }
        return Connection(id: id, server: self, frames: frames)
    }

    fileprivate func receive(_ bytes: [UInt8], from id: Int) {
        state.withLock { state in
            guard let link = state.links[id], var document = state.documents[link.url],
                let message = try? YSyncMessage.decode(bytes)
            else { return }
            var relay: [UInt8]?
            switch message {
            case .syncStep1(let vector):
                if let diff = try? document.replica.encodeStateAsUpdate(since: vector) {
                    link.sink.yield(.binary(YSyncMessage.syncStep2(update: diff).encode()))
                }
            case .syncStep2(let update), .update(let update):
                guard (try? document.replica.applyUpdate(update)) != nil else { return }
                relay = YSyncMessage.update(update).encode()
            case .awareness(let update):
                document.awareness.apply(update, now: 0)
                relay = bytes
            case .queryAwareness:
                link.sink.yield(.binary(YSyncMessage.awareness(document.awareness.fullUpdate()).encode()))
            case .permissionDenied:
                break
            }
            state.documents[link.url] = document
            if let relay {
                for (other, peer) in state.links where other != id && peer.url == link.url { peer.sink.yield(.binary(relay)) }
            }
        }
    }

    fileprivate func close(_ id: Int) {
        let link = state.withLock { $0.links.removeValue(forKey: id) }
        link?.sink.yield(.closed(code: 1000, reason: ""))
        link?.sink.finish()
    }

    private struct Connection: DocumentConnection {
        let id: Int
        let server: InMemoryDocumentServer
        let frames: AsyncStream<DocumentFrame>
        func send(_ message: [UInt8]) { server.receive(message, from: id) }
        func close(code: Int) { server.close(id) }
    }
}
