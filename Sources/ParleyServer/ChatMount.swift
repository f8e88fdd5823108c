import ParleyChannels
import ParleyChat
import ParleyNet
import ParleyWire

/// Mounts the chat REST API (`/v1/…`) on the HTTP server: every route of the chat service with
/// its own body limit, and a catch-all under `/v1` so unknown paths and methods get the chat's
/// JSON 404 and 405.
struct ChatMount {
    let service: ChatService

    /// The methods the catch-all answers (HEAD falls back to GET in the router).
    static let methods: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .OPTIONS]

    func mount(on routes: inout HTTPRoutes) {
        let limits = service.configuration.limits
        let handler = Self.handler(service)
        for route in ChatService.routeTable(devMode: service.configuration.devMode) {
            // Uploads stream up to the attachment limit; everything else is a small JSON body.
            let limit = route.path.hasSuffix("/attachments") && route.method == "POST" ? limits.attachmentBytes : limits.jsonBodyBytes
            routes.add(HTTPMethod(rawValue: route.method), route.path, maxBodySize: limit, handler)
        }
        for method in Self.methods {
            routes.add(method, "/v1/{rest...}", maxBodySize: limits.jsonBodyBytes, handler)
        }
    }

    /// Hands each request to the chat service in a task and answers when it is done.
    static func handler(_ service: ChatService) -> HTTPHandler {
        { request, responder in
            let chatRequest = chatRequest(from: request)
            Task {
                let response = await service.handle(chatRequest)
                responder.respond(status: response.status, headers: response.headers, body: response.body)
            }
        }
    }

    /// The transport-free request: decoded path segments (a `%2F` stays inside its segment) and query.
    static func chatRequest(from request: HTTPRequest) -> ChatRequest {
        var chatRequest = ChatRequest(method: request.method, path: "", query: request.target.query,
                                      headers: request.headers, body: request.body)
        chatRequest.pathSegments = request.target.pathSegments.filter { !$0.isEmpty }
        return chatRequest
    }
}
