/// One message of the y-protocols wire format that y-websocket and its relatives speak:
/// document sync (state vector, diff, live update), awareness, auth and query-awareness.
///
/// Each WebSocket binary message carries exactly one of these. Payloads are lib0-framed:
/// a varuint message type, for sync a varuint sub-type, then a length-prefixed byte array.
/// ``YSyncMessage/decode(_:)`` is total: any byte string either decodes completely or
/// throws a ``YSyncError``; ``YSyncMessage/encode()`` writes the canonical form.
public enum YSyncMessage: Equatable, Sendable {
    /// Sync step 1: the sender's state vector (Yjs format v1), asking for what it lacks.
    case syncStep1(stateVector: [UInt8])
    /// Sync step 2: the reply to step 1, an update with everything the asker lacked.
    case syncStep2(update: [UInt8])
    /// A live document update (Yjs format v1).
    case update([UInt8])
    /// An awareness update: the states of some clients.
    case awareness(AwarenessUpdate)
    /// An auth message: the server refused the connection's access, with a reason.
    case permissionDenied(reason: String)
    /// A request for the states of every client the receiver knows (answered by an awareness message).
    case queryAwareness

    /// The top-level message types of y-protocols.
    public enum MessageType: UInt64, Sendable {
        /// Document sync (`messageSync`).
        case sync = 0
        /// Awareness (`messageAwareness`).
        case awareness = 1
        /// Auth (`messageAuth`).
        case auth = 2
        /// Query awareness (`messageQueryAwareness`).
        case queryAwareness = 3
    }

    /// The sub-types of a sync message.
    public enum SyncType: UInt64, Sendable {
        /// `messageYjsSyncStep1`.
        case step1 = 0
        /// `messageYjsSyncStep2`.
        case step2 = 1
        /// `messageYjsUpdate`.
        case update = 2
    }

    /// The auth sub-type y-protocols defines (the only one).
    static let authPermissionDenied: UInt64 = 0

    /// The message's top-level type.
    public var messageType: MessageType {
        switch self {
        case .syncStep1, .syncStep2, .update: .sync
        case .awareness: .awareness
        case .permissionDenied: .auth
        case .queryAwareness: .queryAwareness
        }
    }

    /// The update a step-2 or update message carries, or nil for other messages.
    public var documentUpdate: [UInt8]? {
        switch self {
        case .syncStep2(let update), .update(let update): update
        default: nil
        }
    }
}
