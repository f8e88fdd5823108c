import ParleyWire

/// One y-websocket connection to one document, independent of the transport: the server
/// feeds it the connection's events and performs the actions it returns.
///
/// The caller authenticates the connection (it verified the user token and hands over the
/// user id) and routes it to a document. On open the session checks access and sends the
/// server's sync step 1 and the awareness of everyone present, as a y-websocket server
/// does; each binary message then goes to the ``DocumentsService``, whose replies are sent
/// back. Changes reach the other peers through the service's ``DocumentPublisher`` (the
/// server delivers ``DocumentBroadcast``s of this document to its sessions, skipping the
/// origin, see ``deliver(_:)``). A message that is malformed, refused or too large closes
/// the connection: y-websocket has no error message, and a closed peer resyncs on reconnect.
public struct YWebSocketSession: Sendable {
    /// Where the session is in its life.
    public enum State: Sendable, Hashable {
        /// Created; ``open()`` not called yet.
        case connecting
        /// Opened and syncing.
        case open
        /// Closed (by an action it returned, or by ``close()``).
        case closed
    }

    /// Close code for a user who may not open the document.
    public static let forbiddenCode = WebSocketCloseCode(4403)
    /// Close code for a document that does not exist.
    public static let notFoundCode = WebSocketCloseCode(4404)
    /// Close code for a session whose access ended while it was open (membership ended, room
    /// or user deleted); the reason says which. Reconnecting is refused (4403 or 4404).
    public static let revokedCode = WebSocketCloseCode(4410)
    /// Close code for a user who created documents too fast (retry later).
    public static let rateLimitedCode = WebSocketCloseCode(4429)

    /// The service that owns the document.
    public let service: DocumentsService
    /// This connection as a participant of the document.
    public let participant: DocumentParticipant
    /// The document the connection is bound to.
    public let documentID: String
    /// The session's state.
    public private(set) var state: State = .connecting
    /// The room owning the document (nil for an access-list document or before ``open()``).
    public private(set) var ownerRoomID: String?
    /// Why the last message was refused (the session closed on it), for logs and metrics.
    public private(set) var refusal: DocumentsError?

    /// Creates a session for an authenticated user on one connection.
    public init(service: DocumentsService, userID: String, connectionID: String, documentID: String) {
        self.service = service
        self.participant = DocumentParticipant(userID: userID, connectionID: connectionID)
        self.documentID = documentID
    }

    /// Call once the WebSocket is open: checks access, then returns the opening messages
    /// (sync step 1 and awareness), or a close action when access is refused.
    public mutating func open() async -> [YWebSocketAction] {
        guard state == .connecting else { return [] }
        do {
            let (info, messages) = try await service.joinDocument(participant, documentID: documentID)
            ownerRoomID = info.ownerRoomID
            state = .open
            return messages.map(YWebSocketAction.send)
        } catch {
            state = .closed
            return [Self.closeAction(for: error)]
        }
    }

    /// Handles one binary message from the peer; returns the replies, or a close action.
    public mutating func receive(_ message: [UInt8]) async -> [YWebSocketAction] {
        guard state == .open else { return [] }
        do {
            let replies = try await service.handleSync(participant, documentID: documentID, message: message)
            return replies.map(YWebSocketAction.send)
        } catch {
            state = .closed
            refusal = error
            await service.leave(participant, documentID: documentID)
            return [Self.closeAction(for: error, detailed: true)]
        }
    }

    /// A text message is not part of the protocol: the session closes.
    public mutating func receiveText() async -> [YWebSocketAction] {
        guard state != .closed else { return [] }
        state = .closed
        await service.leave(participant, documentID: documentID)
        return [.close(.unsupportedData, reason: "y-websocket messages are binary")]
    }

    /// Checks again that the user may open the document (after a revocation raced the open);
    /// a close action with ``revokedCode`` when not, nothing when still allowed.
    public mutating func recheckAccess(reason: String) async -> [YWebSocketAction] {
        guard state == .open else { return [] }
        do {
            _ = try await service.document(id: documentID, for: participant.userID)
            return []
        } catch  where error.code == .forbidden || error.code == .notFound {
            state = .closed
            await service.leave(participant, documentID: documentID)
            return [.close(Self.revokedCode, reason: reason)]
        } catch {
            state = .closed
            await service.leave(participant, documentID: documentID)
            return [Self.closeAction(for: error)]
        }
    }

    /// Ends the session because access ended; returns the close action (``revokedCode``).
    public mutating func revoke(reason: String) async -> [YWebSocketAction] {
        guard state != .closed else { return [] }
        state = .closed
        await service.leave(participant, documentID: documentID)
        return [.close(Self.revokedCode, reason: reason)]
    }

    /// Call when the connection is gone: the peer's awareness is removed for the others.
    public mutating func close() async {
        guard state != .closed else { return }
        state = .closed
        await service.leave(participant, documentID: documentID)
    }

    /// The bytes to send this session for a broadcast, or nil when it is not for this
    /// session (another document or app, or this session is its origin, or it is closed).
    public func deliver(_ broadcast: DocumentBroadcast) -> [UInt8]? {
        guard state == .open, broadcast.app == service.app, broadcast.documentID == documentID,
            broadcast.origin != participant
        else { return nil }
        return broadcast.message
    }

    /// The close action that reports `error` to the peer; a detailed reason adds the
    /// message to the code (`invalid_update: unknown_content: content ref 11`), cut to
    /// the 123 bytes a close frame can carry.
    static func closeAction(for error: DocumentsError, detailed: Bool = false) -> YWebSocketAction {
        let code: WebSocketCloseCode
        switch error.code {
        case .forbidden: code = forbiddenCode
        case .notFound: code = notFoundCode
        case .updateTooLarge, .documentTooLarge: code = .messageTooBig
        case .malformedMessage, .invalidUpdate, .invalidAwareness, .invalidArgument, .alreadyExists: code = .invalidPayload
        case .missingDependencies: code = .policyViolation
        case .storageUnavailable, .documentClosed: code = .internalError
        case .rateLimited: code = rateLimitedCode
        }
        guard detailed else { return .close(code, reason: String(error.code.rawValue.prefix(120))) }
        var reason = "\(error.code.rawValue): \(error.message)"
        while reason.utf8.count > 123 { reason.removeLast() }
        return .close(code, reason: reason)
    }
}
