import ParleyDocs
import ParleyNet
import Synchronization

/// The open y-websocket connections by document, for delivering broadcasts to them and for
/// closing them when their user's access ends.
final class YWebSocketRegistry: Sendable {
    private struct Entry {
        let connection: YWebSocketConnection
        let participant: DocumentParticipant
        let ownerRoomID: String?
    }

    private struct State {
        var documents: [String: [String: Entry]] = [:]
        /// Moves on with every revocation, so an open that raced one is checked again.
        var revocations: UInt64 = 0
    }

    private let state = Mutex(State())

    /// How many revocations ran so far; hand it to `add` after checking access.
    var revocationCount: UInt64 { state.withLock { $0.revocations } }

    /// Registers an open connection of a document, unless a revocation ran since
    /// `checkedAt` (the access check may predate it: check again and retry).
    func add(
        _ connection: YWebSocketConnection, app: String, documentID: String, participant: DocumentParticipant,
        ownerRoomID: String?, checkedAt: UInt64
    ) -> Bool {
        let key = Self.key(app: app, documentID: documentID)
        return state.withLock { state in
            guard state.revocations == checkedAt else { return false }
            state.documents[key, default: [:]][connection.id] = Entry(
                connection: connection, participant: participant, ownerRoomID: ownerRoomID)
            return true
        }
    }

    /// Forgets a connection (nothing happens when it was never added).
    func remove(_ connection: YWebSocketConnection, app: String, documentID: String) {
        let key = Self.key(app: app, documentID: documentID)
        state.withLock { state in
            state.documents[key]?[connection.id] = nil
            if state.documents[key]?.isEmpty == true { state.documents[key] = nil }
        }
    }

    /// Closes with 4410 and forgets the connections whose access ended: `user`'s on the
    /// documents of `room`, every connection on them (`user` nil), or all of `user`'s
    /// (`room` nil). Returns how many were closed.
    @discardableResult
    func revoke(app: String, room: String?, user: String?, reason: String) -> Int {
        let prefix = app + "\u{0}"
        let doomed: [YWebSocketConnection] = state.withLock { state in
            state.revocations &+= 1
            var doomed: [YWebSocketConnection] = []
            for (key, entries) in state.documents where key.hasPrefix(prefix) {
                for (id, entry) in entries where Self.matches(entry, room: room, user: user) {
                    doomed.append(entry.connection)
                    state.documents[key]?[id] = nil
                }
                if state.documents[key]?.isEmpty == true { state.documents[key] = nil }
            }
            return doomed
        }
        for connection in doomed { connection.revoke(reason: reason) }
        return doomed.count
    }

    private static func matches(_ entry: Entry, room: String?, user: String?) -> Bool {
        if let user, entry.participant.userID != user { return false }
        if let room, entry.ownerRoomID != room { return false }
        return true
    }

    /// Sends the broadcast to every connection of its document except its origin; the frame
    /// is encoded once and shared.
    func deliver(_ broadcast: DocumentBroadcast) {
        let key = Self.key(app: broadcast.app, documentID: broadcast.documentID)
        let targets = state.withLock { state in
            (state.documents[key] ?? [:]).values.filter { $0.participant != broadcast.origin }.map(\.connection.socket)
        }
        guard !targets.isEmpty else { return }
        let frame = WebSocket.serverBinaryFrame(broadcast.message)
        for socket in targets { socket.send(shared: frame) }
    }

    private static func key(app: String, documentID: String) -> String { app + "\u{0}" + documentID }
}
