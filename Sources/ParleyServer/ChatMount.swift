import ParleyChannels
import ParleyChat
import ParleyNet
import ParleyWire

/// Mounts the chat REST API (`/v1/…`) on the HTTP server: every route of the chat service with
/// its own body limit and its own handler (the server's router matches a request once), and a
/// catch-all under `/v1` so unknown paths and methods get the chat's JSON 404 and 405, and
/// `OPTIONS` gets the methods a path allows (CORS preflights included).
///
/// A request announcing a body is authenticated from its head first: a caller without valid
/// credentials is refused (401) before any of its body is read.
struct ChatMount {
    let service: ChatService
    let cors: CORSRules

    /// The methods the catch-all answers (HEAD falls back to GET in the router).
    static let methods: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE]

    func mount(on routes: inout HTTPRoutes) {
        let limits = service.configuration.limits
        for endpoint in service.endpoints {
            // Uploads stream up to the attachment limit; everything else is a small JSON body.
            let limit = endpoint.path.hasSuffix("/attachments") && endpoint.method == .POST ? service.uploadBodyLimit : limits.jsonBodyBytes
            routes.add(
                endpoint.method, endpoint.path, maxBodySize: limit, headCheck: Self.credentialsCheck(service, endpoint, cors),
                Self.handler(service, endpoint, cors))
        }
        let fallback = Self.handler(service, cors)
        for method in Self.methods {
            routes.add(method, "/v1/{rest...}", maxBodySize: limits.jsonBodyBytes, headCheck: Self.routingCheck(service, cors), fallback)
        }
        routes.add(.OPTIONS, "/v1/{rest...}", maxBodySize: 0, Self.options(service, cors))
    }

    /// Refuses, from the head, a request with a body whose credentials fail (a request
    /// without a body costs nothing to read and is checked once, by its handler).
    static func credentialsCheck(_ service: ChatService, _ endpoint: ChatEndpoint, _ cors: CORSRules) -> HTTPHeadCheck {
        { request in
            guard request.head.announcesBody,
                let refusal = service.refusalBeforeBody(chatRequest(from: request), endpoint: endpoint)
            else { return nil }
            return HTTPResponse(
                status: refusal.status,
                headers: cors.decorate(refusal.headers, origin: request.headers.first("Origin"), app: nil),
                body: refusal.body)
        }
    }

    /// Answers a path or method no endpoint has from the head (404/405): its body would change nothing.
    static func routingCheck(_ service: ChatService, _ cors: CORSRules) -> HTTPHeadCheck {
        { request in
            guard let error = service.routingError(chatRequest(from: request)) else { return nil }
            return HTTPResponse(
                status: error.status,
                headers: cors.decorate(error.headers, origin: request.headers.first("Origin"), app: nil),
                body: error.body)
        }
    }

    /// `OPTIONS` on a chat path: a CORS preflight gets 204 with the allowed origin, methods
    /// and headers (nothing CORS when the origin is not allowed); a plain one gets 204 and `Allow`.
    static func options(_ service: ChatService, _ cors: CORSRules) -> HTTPHandler {
        { request, responder in
            guard let methods = service.allowedMethods(request.target.pathSegments) else {
                responder.respond(.error(.notFound, code: ChatErrorCode.notFound.rawValue, message: "no such endpoint"))
                return
            }
            var headers = HTTPHeaders()
            if let origin = request.headers.first("Origin"), request.headers.contains("Access-Control-Request-Method") {
                for field in cors.anyApp.preflightHeaders(origin: origin, methods: methods) ?? ["Vary": "Origin"] {
                    headers.add(field.name, field.value)
                }
            } else {
                headers.add("Allow", (methods + [.OPTIONS]).map(\.rawValue).joined(separator: ", "))
            }
            responder.respond(status: .noContent, headers: headers)
        }
    }

    /// Hands a request the server routed to `endpoint` to the chat service, with the route's
    /// parameters, and answers when it is done.
    ///
    /// The task runs on the connection's own loop (its executor preference): the handler's
    /// work happens there, database continuations resume there, and the answer is written
    /// without another hop. Endpoints that block on file I/O (attachments) run in the
    /// global pool instead, so they never stall a loop.
    static func handler(_ service: ChatService, _ endpoint: ChatEndpoint, _ cors: CORSRules) -> HTTPHandler {
        { request, responder in
            let chatRequest = chatRequest(from: request)
            let parameters = request.parameters
            let origin = cors.isEmpty ? nil : request.headers.first("Origin")
            let executor: (any TaskExecutor)? = endpoint.blocks ? nil : responder.loop
            Task(executorPreference: executor) {
                let response = await service.handle(chatRequest, endpoint: endpoint, parameters: parameters)
                var answer = HTTPResponse(
                    status: response.status, headers: cors.decorate(response.headers, origin: origin, app: response.appID),
                    body: response.body)
                answer.loggedApp = response.appID
                answer.loggedUser = response.userID
                responder.respond(answer)
            }
        }
    }

    /// Hands a request no endpoint matched to the chat service (its JSON 404 or 405).
    static func handler(_ service: ChatService, _ cors: CORSRules) -> HTTPHandler {
        { request, responder in
            let chatRequest = chatRequest(from: request)
            let origin = request.headers.first("Origin")
            Task {
                let response = await service.handle(chatRequest)
                responder.respond(
                    status: response.status, headers: cors.decorate(response.headers, origin: origin, app: nil),
                    body: response.body)
            }
        }
    }

    /// The transport-free request: decoded path segments (a `%2F` stays inside its segment) and query.
    static func chatRequest(from request: HTTPRequest) -> ChatRequest {
        var chatRequest = ChatRequest(
            method: request.method, path: "", query: request.target.query,
            headers: request.headers, body: request.body)
        chatRequest.pathSegments = request.target.pathSegments
        return chatRequest
    }
}
