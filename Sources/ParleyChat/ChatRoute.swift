/// One endpoint: who may call it and what answers it.
struct ChatRoute: Sendable {
    /// How a route's caller is authenticated.
    enum Access: Sendable {
        /// Nobody needs credentials (the OpenAPI document).
        case open
        /// Dev mode only, no credentials; the app is `X-Parley-App` or the first one.
        case development
        /// A user token or the app's key and secret.
        case authenticated
        /// Like `authenticated`, or no credentials at all (the handler checks a signed URL).
        case authenticatedOrSigned
    }

    /// Who may call.
    var access: Access
    /// The handler.
    var handler: @Sendable (ChatService, ChatCall) async throws -> ChatResponse
}

/// A matched request on its way to a handler.
struct ChatCall: Sendable {
    /// The request.
    var request: ChatRequest
    /// The path parameters.
    var parameters: [String: String]
    /// The app and caller; nil only for open routes and unauthenticated signed downloads.
    var context: ChatContext?

    /// A path parameter the pattern guarantees.
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The authenticated context (routes that require one always have it).
    func requireContext() throws(ChatError) -> ChatContext {
        guard let context else { throw ChatError(.authenticationRequired, "send a user token or the app key and secret") }
        return context
    }
}
