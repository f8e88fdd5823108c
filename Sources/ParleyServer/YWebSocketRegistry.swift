import ParleyDocs
import ParleyNet
import Synchronization

/// The open y-websocket connections by document, for delivering broadcasts to them.
final class YWebSocketRegistry: Sendable {
    private struct Entry {
        let connection: YWebSocketConnection
        let participant: DocumentParticipant
    }

    private let documents = Mutex<[String: [String: Entry]]>([:])

    /// Registers an open connection of a document.
    func add(_ connection: YWebSocketConnection, app: String, documentID: String, participant: DocumentParticipant) {
        let key = Self.key(app: app, documentID: documentID)
        documents.withLock { $0[key, default: [:]][connection.id] = Entry(connection: connection, participant: participant) }
    }

    /// Forgets a connection (nothing happens when it was never added).
    func remove(_ connection: YWebSocketConnection, app: String, documentID: String) {
        let key = Self.key(app: app, documentID: documentID)
        documents.withLock { documents in
            documents[key]?[connection.id] = nil
            if documents[key]?.isEmpty == true { documents[key] = nil }
        }
    }

    /// Sends the broadcast to every connection of its document except its origin; the frame
    /// is encoded once and shared.
    func deliver(_ broadcast: DocumentBroadcast) {
        let key = Self.key(app: broadcast.app, documentID: broadcast.documentID)
        let targets = documents.withLock { documents in
            (documents[key] ?? [:]).values.filter { $0.participant != broadcast.origin }.map(\.connection.socket)
        }
        guard !targets.isEmpty else { return }
        let frame = WebSocket.serverBinaryFrame(broadcast.message)
        for socket in targets { socket.send(shared: frame) }
    }

    private static func key(app: String, documentID: String) -> String { app + "\u{0}" + documentID }
}
