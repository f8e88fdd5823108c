import ParleyChannels
import ParleyChat
import ParleyNet
import ParleyWire

/// Mounts the chat REST API (`/v1/…`) on the HTTP server: every route of the chat service with
/// its own body limit and its own handler (the server's router matches a request once), and a
/// catch-all under `/v1` so unknown paths and methods get the chat's JSON 404 and 405.
struct ChatMount {
    let service: ChatService

    /// The methods the catch-all answers (HEAD falls back to GET in the router).
    static let methods: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .OPTIONS]

    func mount(on routes: inout HTTPRoutes) {
        let limits = service.configuration.limits
        for endpoint in service.endpoints {
            // Uploads stream up to the attachment limit; everything else is a small JSON body.
            let limit = endpoint.path.hasSuffix("/attachments") && endpoint.method == .POST ? limits.attachmentBytes : limits.jsonBodyBytes
            routes.add(endpoint.method, endpoint.path, maxBodySize: limit, Self.handler(service, endpoint))
        }
        let fallback = Self.handler(service)
        for method in Self.methods {
            routes.add(method, "/v1/{rest...}", maxBodySize: limits.jsonBodyBytes, fallback)
        }
    }

    /// Hands a request the server routed to `endpoint` to the chat service, with the route's
    /// parameters, and answers when it is done.
    ///
    /// The task runs on the connection's own loop (its executor preference): the handler's
    /// work happens there, database continuations resume there, and the answer is written
    /// without another hop. Endpoints that block on file I/O (attachments) run in the
    /// global pool instead, so they never stall a loop.
    static func handler(_ service: ChatService, _ endpoint: ChatEndpoint) -> HTTPHandler {
        { request, responder in
            let chatRequest = chatRequest(from: request)
            let parameters = request.parameters
            let executor: (any TaskExecutor)? = endpoint.blocks ? nil : responder.loop
            Task(executorPreference: executor) {
                let response = await service.handle(chatRequest, endpoint: endpoint, parameters: parameters)
                responder.respond(status: response.status, headers: response.headers, body: response.body)
            }
        }
    }

    /// Hands a request no endpoint matched to the chat service (its JSON 404 or 405).
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
        chatRequest.pathSegments = request.target.pathSegments
        return chatRequest
    }
}
