/// What one node's documents service tells the others' over the cluster bus: an update it
/// accepted and stored, an awareness change of its own participants, or a request for the
/// awareness of everyone present (sent when a node opens a document).
///
/// Updates travel on ``updateTopic`` and awareness on ``awarenessTopic``, as generic bus
/// notices. The payload is binary: a kind byte, the app and the document id (each a 32-bit
/// big-endian length and UTF-8), then the y-protocols message as it goes to y-websocket peers.
public enum DocumentClusterNotice: Sendable, Equatable {
    /// A y-protocols update message, already durable on the node that accepted it.
    case update(app: String, documentID: String, message: [UInt8])
    /// A y-protocols awareness message about the sending node's own participants' clients.
    case awareness(app: String, documentID: String, message: [UInt8])
    /// Asks every node holding the document open to send the awareness of its participants.
    case awarenessQuery(app: String, documentID: String)

    /// The bus topic of document updates.
    public static let updateTopic = "docs.update"
    /// The bus topic of awareness changes and queries.
    public static let awarenessTopic = "docs.awareness"

    private enum Kind: UInt8 {
        case update = 0
        case awareness = 1
        case awarenessQuery = 2
    }

    /// The topic the notice travels on.
    public var topic: String {
        if case .update = self { return Self.updateTopic }
        return Self.awarenessTopic
    }

    /// The app of the document.
    public var app: String {
        switch self {
        case .update(let app, _, _), .awareness(let app, _, _), .awarenessQuery(let app, _): app
        }
    }

    /// The document.
    public var documentID: String {
        switch self {
        case .update(_, let id, _), .awareness(_, let id, _), .awarenessQuery(_, let id): id
        }
    }

    /// The payload of the bus notice.
    public var encoded: [UInt8] {
        let (kind, message): (Kind, [UInt8]) =
            switch self {
            case .update(_, _, let message): (.update, message)
            case .awareness(_, _, let message): (.awareness, message)
            case .awarenessQuery: (.awarenessQuery, [])
            }
        var out: [UInt8] = [kind.rawValue]
        for field in [Array(app.utf8), Array(documentID.utf8)] {
            let count = UInt32(field.count)
            out += [
                UInt8(count >> 24), UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8),
                UInt8(truncatingIfNeeded: count)
            ]
            out += field
        }
        return out + message
    }

    /// Decodes a payload; nil when it is malformed or of a kind this node does not know.
    public init?(decoding bytes: [UInt8]) {
        guard let first = bytes.first, let kind = Kind(rawValue: first) else { return nil }
        var offset = 1
        func field() -> String? {
            guard bytes.count - offset >= 4 else { return nil }
            let count = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
        }
        guard let app = field(), let id = field() else { return nil }
        let message = Array(bytes[offset...])
        switch kind {
        case .update: self = .update(app: app, documentID: id, message: message)
        case .awareness: self = .awareness(app: app, documentID: id, message: message)
        case .awarenessQuery: self = .awarenessQuery(app: app, documentID: id)
        }
    }
}
