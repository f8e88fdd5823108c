import ParleyChannels
import ParleyWire

/// Authentication: user tokens (Bearer JWT) and app credentials (Basic key:secret).
extension ChatService {
    /// The header naming the app a request addresses (optional with a token: its `aud` decides).
    static let appHeader = "X-Parley-App"

    /// The caller of a request, as the route's access rule demands.
    func authenticate(_ request: ChatRequest, as access: ChatRoute.Access) throws(ChatError) -> ChatContext? {
        switch access {
        case .open:
            return nil
        case .development:
            return ChatContext(app: try developmentApp(request), caller: .app)
        case .authenticated:
            return try credentials(request)
        case .authenticatedOrSigned:
            guard request.headers.first("Authorization") != nil else { return nil }
            return try credentials(request)
        }
    }

    private func credentials(_ request: ChatRequest) throws(ChatError) -> ChatContext {
        guard let authorization = request.headers.first("Authorization") else {
            throw ChatError(
                .authenticationRequired, "send a user token (Authorization: Bearer) or the app key and secret (Basic)",
                headers: ["WWW-Authenticate": "Bearer"])
        }
        let expectedApp = request.headers.first(Self.appHeader)
        if let token = Self.credential(authorization, scheme: "bearer") {
            let (app, claims) = try verifier.verify(token, now: nowSeconds, expectedApp: expectedApp)
            return ChatContext(app: app, caller: .user(claims.userID), tokenIssuedAt: claims.issuedAt)
        }
        if let basic = Self.credential(authorization, scheme: "basic") {
            let app = try appCredentials(basic)
            if let expectedApp, expectedApp != app.id {
                throw ChatError(.invalidCredentials, "the key belongs to another app than \(expectedApp)")
            }
            return ChatContext(app: app, caller: .app)
        }
        throw ChatError(
            .authenticationRequired, "use the Bearer or Basic authentication scheme",
            headers: ["WWW-Authenticate": "Bearer"])
    }

    /// `key:secret` from a Basic credential, checked in constant time.
    private func appCredentials(_ encoded: String) throws(ChatError) -> AppConfig {
        guard let decoded = Base64.decode(encoded), let colon = decoded.firstIndex(of: UInt8(ascii: ":")) else {
            throw ChatError(.invalidCredentials, "Basic credentials are base64(key:secret)")
        }
        let key = String(decoding: decoded[..<colon], as: UTF8.self)
        let secret = Array(decoded[(colon + 1)...])
        guard let app = apps.app(key: key) else { throw ChatError(.invalidCredentials, "unknown app key or wrong secret") }
        guard app.acceptsAnySecret({ Digest.constantTimeEqual(secret, Array($0.utf8)) }) else {
            throw ChatError(.invalidCredentials, "unknown app key or wrong secret")
        }
        return app
    }

    /// The credential after a case-insensitive scheme name, or nil for another scheme.
    private static func credential(_ header: String, scheme: String) -> String? {
        let utf8 = header.utf8[...]
        let schemeBytes = scheme.utf8
        guard utf8.count > schemeBytes.count + 1 else { return nil }
        guard HTTPHeaders.namesEqual(String(decoding: utf8.prefix(schemeBytes.count), as: UTF8.self), scheme),
            utf8.dropFirst(schemeBytes.count).first == UInt8(ascii: " ")
        else { return nil }
        return String(Substring(utf8.dropFirst(schemeBytes.count + 1).trimmingSpacesAndTabs()))
    }

    /// The app a dev-mode request addresses: `X-Parley-App`, or the first configured app.
    private func developmentApp(_ request: ChatRequest) throws(ChatError) -> AppConfig {
        if let id = request.headers.first(Self.appHeader) {
            guard let app = apps.app(id: id) else { throw ChatError(.unknownApp, "no app \(id)") }
            return app
        }
        guard let app = apps.apps.first else { throw ChatError(.unknownApp, "no app is configured") }
        return app
    }
}
