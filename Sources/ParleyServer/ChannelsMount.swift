import ParleyChannels
import ParleyNet
import ParleyWire

/// Mounts the Pusher-compatible channels service: WebSockets at `/app/{key}`, the HTTP API
/// at `/apps/{id}/…` and `/users/{id}/terminate_connections`.
struct ChannelsMount {
    let service: ChannelsService
    let options: ServeOptions
    /// Largest HTTP API body (a batch of ten 10 KB events fits with room to spare).
    static let apiBodyLimit = 1 << 20
    /// permessage-deflate without context takeover either way: a side that resets after every
    /// message borrows a zlib stream for that message only, so an idle subscribed connection
    /// holds none (one held per connection cost about 100 KiB of resident memory). Pusher
    /// messages are small JSON documents, which lose little by not sharing a history.
    static let deflatePolicy = WebSocketDeflateOptions(serverNoContextTakeover: true, clientNoContextTakeover: true)

    /// The HTTP API's endpoints, as route templates.
    static let apiPatterns = [
        "/apps/{app_id}/events", "/apps/{app_id}/batch_events", "/apps/{app_id}/channels",
        "/apps/{app_id}/channels/{channel_name}", "/apps/{app_id}/channels/{channel_name}/users",
        "/apps/{app_id}/users/{user_id}/terminate_connections", "/users/{user_id}/terminate_connections"
    ]

    func mount(on routes: inout HTTPRoutes) {
        let service = self.service
        // The socket's own bound sits above the session's, so the session's 4100 (error message,
        // then close frame) is what a slow consumer sees; the socket's bound is only a backstop.
        // A consumer that fell behind gets 30 s to read that close before TCP is cut; what it
        // holds meanwhile is bounded (its queue was dropped).
        let socketOptions = WebSocketRouteOptions(
            maxMessageSize: options.maxMessageSize,
            deflate: options.compression ? Self.deflatePolicy : nil,
            maxOutboundBytes: service.config.maxOutboundBytes + 64 * 1024,
            overflowCloseCode: WebSocketCloseCode(rawValue: 4100),
            closeTimeout: .seconds(30))
        routes.webSocket("/app/{key}", options: socketOptions) { request, socket in
            Self.open(service: service, request: request, socket: socket)
        }
        let api: HTTPHandler = { request, responder in
            let answer = service.handleAPI(
                PusherAPIRequest(
                    method: request.method.rawValue, target: request.head.target,
                    body: request.body))
            responder.respond(.json(answer.body, status: HTTPStatus(answer.status)))
        }
        // A request with a body is judged by its signed head first: a stranger's body is never read.
        let headCheck: HTTPHeadCheck = { request in
            guard request.head.announcesBody,
                let refusal = service.apiRefusalBeforeBody(
                    PusherAPIRequest(
                        method: request.method.rawValue,
                        target: request.head.target))
            else { return nil }
            return .json(refusal.body, status: HTTPStatus(refusal.status))
        }
        // The API routes itself; its endpoints are named here too so that the access log and
        // the latency histograms tell them apart. The catch-alls take everything else.
        for method in [HTTPMethod.GET, .POST] {
            for pattern in Self.apiPatterns + ["/apps/{rest...}", "/users/{rest...}"] {
                routes.add(method, pattern, maxBodySize: Self.apiBodyLimit, headCheck: headCheck, api)
            }
        }
    }

    private static func open(service: ChannelsService, request: HTTPRequest, socket: WebSocket) {
        let transport = WebSocketPusherTransport(socket: socket)
        let query = PusherQuery(parsing: Substring(request.target.rawQuery ?? ""))
        guard
            let session = service.openSession(
                path: request.target.rawPath, query: query, transport: transport,
                loopIndex: socket.loop.index)
        else { return }
        transport.attach(session, loop: socket.loop)
    }
}

extension EventLoop: HubLoop {}
