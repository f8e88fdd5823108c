import ParleyChannels
import ParleyChat
import ParleyDocs
import ParleyNet
import ParleyPlatform
import ParleyStore
import ParleyWire

/// Mounts the live documents: one `DocumentsService` per app over the chat database, a
/// y-websocket endpoint for Yjs providers, and publishing on `private-doc-{id}`.
///
/// Endpoints (the user token in `?token=` or `Authorization: Bearer`):
/// - `GET /v1/docs/{document_id}/ws` — a document by id;
/// - `GET /v1/rooms/{room_id}/docs/{name}/ws` — the room's document called `name`, created on
///   first use (what `/doc NAME` opens); room members may edit it.
final class DocsMount: AccessEndObserver {
    /// The prefix of documents' channels (`private-doc-{id}`).
    static let channelPrefix = DocumentBroadcast.pusherChannel(for: "")
    /// The documents service of each app, by app id.
    let services: [String: DocumentsService]
    private let sockets: YWebSocketRegistry
    /// Each app's bounds on a y-websocket connection's unhandled messages.
    private let backlogLimits: [String: YWebSocketBacklog<YWebSocketConnection.Message>.Limits]
    /// Logs, counts and slows down refused messages.
    let refusals: DocumentRefusals

    /// Builds the services over the chat store's database; broadcasts go to `hub` and to the
    /// document's y-websocket connections.
    init(apps: AppRegistry, store: SQLChatStore, hub: any ChannelHub, refusals: DocumentRefusals = DocumentRefusals()) {
        self.refusals = refusals
        let sockets = YWebSocketRegistry()
        let documents = SQLDocumentStore(database: store.database, limits: store.limits)
        let membership = StoreRoomMembership(store: store)
        let publisher = DocumentFanout(hub: hub, apps: apps, sockets: sockets)
        var services: [String: DocumentsService] = [:]
        for app in apps.apps {
            var configuration = DocumentsConfiguration()
            configuration.creationRate = app.limits.rates[.documents]
            configuration.loadDelayForTesting = Self.loadDelayForTesting
            services[app.id] = DocumentsService(
                app: app.id, store: documents, membership: membership, publisher: publisher,
                configuration: configuration)
        }
        self.services = services
        self.sockets = sockets
        // Several nodes on one bus: every node's replicas and peers see every node's changes.
        if let cluster = hub as? ClusterChannelHub { DocumentsCluster(hub: cluster, services: services).start() }
        backlogLimits = Dictionary(
            apps.apps.map { app in
                (
                    app.id,
                    .init(
                        pauseMessages: app.limits.documentBacklogMessages, pauseBytes: app.limits.documentBacklogBytes,
                        closeBytes: 8 * app.limits.documentBacklogBytes)
                )
            }, uniquingKeysWith: { first, _ in first })
    }

    /// `POST /v1/channels/auth` for `private-doc-{id}`: whoever may open the document.
    func authorizeChannel(app: String, user: String, channel: String) async -> ChannelAuthorization {
        guard let id = DocumentBroadcast.documentID(fromChannel: channel) else { return .notChatChannel }
        guard let service = services[app] else { return .denied(ChatError(.unknownApp, "no app \(app)")) }
        do {
            let info = try await service.document(id: id, for: user)
            // A room's document is open to the room's members: the grant ends with the membership.
            return info.ownerRoomID.map { .allowedWhileMember(room: $0) } ?? .allowed
        } catch  where error.code == .forbidden || error.code == .notFound {
            return .denied(ChatError(.channelForbidden, "you may not open document \(id)"))
        } catch {
            return .denied(ChatError(.unavailable, "documents are unavailable: \(error)"))
        }
    }

    /// Closes the y-websocket sessions whose access ended, with 4410 and the reason.
    func accessEnded(_ ending: AccessEnding) {
        sockets.revoke(app: ending.app, room: ending.room, user: ending.user, reason: ending.reason.rawValue)
    }

    /// Adds the y-websocket endpoints.
    func mount(on routes: inout HTTPRoutes, chat: ChatService, options: ServeOptions) {
        let socketOptions = WebSocketRouteOptions(
            maxMessageSize: max(options.maxMessageSize, 1 << 20),
            pingInterval: .seconds(30), maxOutboundBytes: 8 << 20)
        let check: WebSocketUpgradeCheck = { request, _ in
            switch Self.authenticate(request, chat: chat) {
            case .success: return nil
            case .failure(let error): return .error(error.code.status, code: error.code.rawValue, message: error.message)
            }
        }
        routes.webSocket("/v1/docs/{document_id}/ws", options: socketOptions, shouldUpgrade: check) { [self] request, socket in
            let id = request.parameter("document_id") ?? ""
            open(request, socket: socket, chat: chat) { _, _ in id }
        }
        routes.webSocket("/v1/rooms/{room_id}/docs/{name}/ws", options: socketOptions, shouldUpgrade: check) { [self] request, socket in
            let room = request.parameter("room_id") ?? "", name = request.parameter("name") ?? ""
            open(request, socket: socket, chat: chat) { service, user in
                try await service.openOrCreateDocument(name: name, room: room, by: user).id
            }
        }
    }

    /// Expires awareness and closes idle documents every few seconds, until the process ends.
    func startSweeping() {
        let services = Array(self.services.values)
        Task.detached {
            while true {
                try? await Task.sleep(for: .seconds(5))
                for service in services { await service.sweep() }
            }
        }
    }

    /// The token's user, from `?token=` or a Bearer header.
    private static func authenticate(_ request: HTTPRequest, chat: ChatService) -> Result<UserToken, ChatError> {
        guard let token = tokenText(request), !token.isEmpty else {
            return .failure(ChatError(.authenticationRequired, "send the user token as ?token= or Authorization: Bearer"))
        }
        do {
            return .success(try chat.verifyUserToken(token, expectedApp: request.headers.first("X-Parley-App")))
        } catch {
            return .failure(error)
        }
    }

    /// The token text from `?token=` or a Bearer header.
    private static func tokenText(_ request: HTTPRequest) -> String? {
        if let token = request.query("token") { return token }
        guard let header = request.headers.first("Authorization"), header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst("bearer ".count))
    }

    /// Starts one connection: resolves the document, then feeds the session in order.
    private func open(
        _ request: HTTPRequest, socket: WebSocket, chat: ChatService,
        resolve: @escaping @Sendable (DocumentsService, String) async throws -> String
    ) {
        guard case .success(let token) = Self.authenticate(request, chat: chat), let service = services[token.appID] else {
            socket.close(code: YWebSocketSession.forbiddenCode, reason: "unauthorized")
            return
        }
        let limits = backlogLimits[token.appID] ?? .init()
        let connection = YWebSocketConnection(socket: socket, limits: limits)
        let sockets = self.sockets
        let refusals = self.refusals
        let raw = Self.tokenText(request) ?? ""
        let expectedApp = request.headers.first("X-Parley-App")
        Task {
            // The upgrade checked the signature; a deleted user's token is refused here.
            do {
                _ = try await chat.authenticateUser(raw, expectedApp: expectedApp)
            } catch {
                let revoked = (error as? ChatError)?.code == .tokenRevoked
                socket.close(
                    code: revoked ? YWebSocketSession.revokedCode : YWebSocketSession.forbiddenCode,
                    reason: revoked ? ChatErrorCode.tokenRevoked.rawValue : "unauthorized")
                return
            }
            let documentID: String
            do {
                documentID = try await resolve(service, token.userID)
            } catch {
                let reason = (error as? DocumentsError).map { String($0.code.rawValue.prefix(120)) } ?? "unavailable"
                let code = Self.closeCode(for: (error as? DocumentsError)?.code)
                socket.close(code: code, reason: reason)
                return
            }
            let session = YWebSocketSession(
                service: service, userID: token.userID,
                connectionID: "yws-" + connection.id, documentID: documentID)
            await connection.run(session, registry: sockets, refusals: refusals)
        }
    }
}

extension DocsMount {
    /// `PARLEY_TEST_DOCUMENT_LOAD_DELAY_MS`: a test-only delay after a document's content is
    /// read from the store (see ``DocumentsConfiguration/loadDelayForTesting``).
    static var loadDelayForTesting: Int64 {
        getenv("PARLEY_TEST_DOCUMENT_LOAD_DELAY_MS").flatMap { Int64(String(cString: $0)) } ?? 0
    }

    /// The close code for a document that could not be resolved.
    static func closeCode(for code: DocumentsError.Code?) -> WebSocketCloseCode {
        switch code {
        case .forbidden: YWebSocketSession.forbiddenCode
        case .rateLimited: YWebSocketSession.rateLimitedCode
        default: YWebSocketSession.notFoundCode
        }
    }
}

/// Room membership for room-owned documents, answered by the chat store.
struct StoreRoomMembership: RoomMembership {
    let store: any ChatStore

    func isMember(app: String, room: String, user: String) async throws -> Bool {
        do {
            return try await store.membership(app: app, room: room, user: user) != nil
        } catch let error as StoreError where error.code == .notFound {
            return false
        }
    }
}

/// Delivers document broadcasts: on `private-doc-{id}` through the hub (the y-protocols
/// message in Base64, as `doc-message`) and to the document's other y-websocket connections.
struct DocumentFanout: DocumentPublisher {
    let hub: any ChannelHub
    let apps: AppRegistry
    let sockets: YWebSocketRegistry

    func publish(_ broadcast: DocumentBroadcast) {
        if let app = apps.app(id: broadcast.app) {
            hub.publish(
                app: app,
                events: [
                    HubEvent(
                        channel: broadcast.pusherChannel, event: DocumentBroadcast.pusherEvent,
                        data: .string(Base64.encode(broadcast.message)))
                ])
        }
        sockets.deliver(broadcast)
    }

    /// Another node's change reaches this node's y-websocket peers only: that node's hub
    /// publish already reached realtime subscribers here.
    func deliverFromOtherNode(_ broadcast: DocumentBroadcast) {
        sockets.deliver(broadcast)
    }
}
