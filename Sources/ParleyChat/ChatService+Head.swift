import ParleyWire

/// What a transport can decide from a request's head alone, before reading its body.
extension ChatService {
    /// The answer refusing a request whose credentials fail, decided from its head (the
    /// body is not looked at), or nil when the request may proceed and its body be read.
    ///
    /// A transport calls this before reading a body, so a caller without valid credentials
    /// never gets the server to buffer an upload: it is refused with the same 401 the full
    /// request would get.
    public func refusalBeforeBody(_ request: ChatRequest, endpoint: ChatEndpoint) -> ChatResponse? {
        switch endpoint.route.access {
        case .open, .development:
            return nil
        case .authenticated, .authenticatedOrSigned:
            do {
                _ = try authenticate(request, as: endpoint.route.access)
                return nil
            } catch {
                return .error(error)
            }
        }
    }

    /// The 404 or 405 for a request no endpoint answers, decided from its path and method;
    /// nil when an endpoint does answer it.
    public func routingError(_ request: ChatRequest) -> ChatResponse? {
        switch router.match(method: request.method, segments: request.pathSegments) {
        case .found: return nil
        case .notFound: return .error(ChatError(.notFound, "no such endpoint"))
        case .methodNotAllowed(let allowed):
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            return .error(ChatError(.methodNotAllowed, "use one of: \(allow)", headers: ["Allow": allow]))
        }
    }

    /// The methods an endpoint path accepts (for `Allow` and CORS preflights); nil when no
    /// endpoint has the path.
    public func allowedMethods(_ pathSegments: [String]) -> [HTTPMethod]? {
        switch router.match(method: .OPTIONS, segments: pathSegments) {
        case .notFound: return nil
        case .methodNotAllowed(let allowed): return allowed
        case .found: return [.OPTIONS]
        }
    }
}
