import ParleyChannels
import ParleyWire

/// Verifies user tokens (JWT, HS256 only) against the hosted apps' secrets.
///
/// The unverified `aud` only selects whose secret to check with; nothing in the token is
/// trusted before its signature matches. Other algorithms, `none` included, are refused.
struct TokenVerifier: Sendable {
    /// The app with an id, as configured now.
    let app: @Sendable (String) -> AppConfig?
    /// Allowed clock difference, in seconds.
    let leeway: Int64
    /// Tokens verified before (clients send the same token with every request).
    let cache: VerifiedTokenCache

    /// A verifier for `apps`, remembering up to `cacheCapacity` verified tokens.
    init(apps: [String: AppConfig], leeway: Int64, cacheCapacity: Int = 10_000) {
        self.init(app: { apps[$0] }, leeway: leeway, cacheCapacity: cacheCapacity)
    }

    /// A verifier that looks each token's app up in `app` (a live registry).
    init(app: @escaping @Sendable (String) -> AppConfig?, leeway: Int64, cacheCapacity: Int = 10_000) {
        self.app = app
        self.leeway = leeway
        self.cache = VerifiedTokenCache(capacity: cacheCapacity)
    }

    /// The token's claims, or the 401 error that refuses it. `now` is in seconds.
    func verify(_ token: String, now: Int64, expectedApp: String?) throws(ChatError) -> (AppConfig, UserToken) {
        let key = VerifiedTokenCache.Key(token: token, expectedApp: expectedApp)
        if let hit = cache.lookup(key, now: now) { return hit }
        let (app, claims, validFrom) = try verifyFully(token, now: now, expectedApp: expectedApp)
        cache.store(
            key, VerifiedTokenCache.Entry(app: app, claims: claims, validFrom: validFrom, validUntil: claims.expiresAt + leeway), now: now)
        return (app, claims)
    }

    /// Verification without the cache; also returns the first second the token is valid at.
    private func verifyFully(_ token: String, now: Int64, expectedApp: String?) throws(ChatError) -> (AppConfig, UserToken, Int64) {
        let pieces = Array(token.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard pieces.count == 3 else { throw ChatError(.tokenMalformed, "a token has three dot-separated parts") }
        let header = try Self.decodeObject(pieces[0], what: "header")
        guard header["alg"]?.stringValue == "HS256" else {
            throw ChatError(.tokenAlgorithmUnsupported, "only HS256 tokens are accepted")
        }
        let claims = try Self.decodeObject(pieces[1], what: "claims")
        let audiences = try Self.audiences(claims)
        guard let audience = expectedApp ?? audiences.first else {
            throw ChatError(.tokenMalformed, "the token has no aud claim")
        }
        guard let app = app(audience) else { throw ChatError(.unknownApp, "no app \(audience)") }
        guard audiences.contains(app.id) else {
            throw ChatError(.tokenWrongAudience, "the token was not minted for app \(app.id)")
        }
        try Self.checkSignature(pieces, secrets: app.secrets)
        let (verified, validFrom) = try checkClaims(claims, app: app, now: now)
        return (app, verified, validFrom)
    }

    /// The claims and the first second at which `iat` and `nbf` allow them (leeway applied).
    private func checkClaims(_ claims: JSONValue, app: AppConfig, now: Int64) throws(ChatError) -> (UserToken, Int64) {
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty, subject.utf8.count <= 200,
            subject.utf8.allSatisfy(PusherChannel.isNameByte)
        else {
            throw ChatError(.tokenMalformed, "sub must be a user id of 1-200 characters from [A-Za-z0-9_-=@,.;]")
        }
        guard let expires = Self.seconds(claims["exp"]) else { throw ChatError(.tokenMalformed, "exp must be a number") }
        guard now <= expires + leeway else { throw ChatError(.tokenExpired, "the token expired") }
        let issued = Self.seconds(claims["iat"])
        if claims["iat"] != nil, issued == nil { throw ChatError(.tokenMalformed, "iat must be a number") }
        if let issued, issued > now + leeway { throw ChatError(.tokenNotYetValid, "the token was issued in the future") }
        var validFrom = (issued ?? .min / 2) - leeway
        if let notBefore = claims["nbf"] {
            guard let value = Self.seconds(notBefore) else { throw ChatError(.tokenMalformed, "nbf must be a number") }
            guard value <= now + leeway else { throw ChatError(.tokenNotYetValid, "the token is not valid yet") }
            validFrom = max(validFrom, value - leeway)
        }
        return (UserToken(appID: app.id, userID: subject, issuedAt: issued, expiresAt: expires), validFrom)
    }

    /// A token signed with any of the app's secrets is good (a rotation keeps old tokens working).
    private static func checkSignature(_ pieces: [ArraySlice<UInt8>], secrets: [String]) throws(ChatError) {
        guard let given = Base64URL.decode(pieces[2]) else { throw ChatError(.tokenMalformed, "the signature is not base64url") }
        let signingInput = Array(pieces[0]) + [UInt8(ascii: ".")] + Array(pieces[1])
        guard secrets.contains(where: { Digest.constantTimeEqual(given, Digest.hmacSHA256(key: Array($0.utf8), signingInput)) }) else {
            throw ChatError(.tokenSignatureInvalid, "the token's signature does not match")
        }
    }

    private static func decodeObject(_ piece: ArraySlice<UInt8>, what: String) throws(ChatError) -> JSONValue {
        guard let bytes = Base64URL.decode(piece), let value = try? JSONParser.parse(bytes), value.objectValue != nil else {
            throw ChatError(.tokenMalformed, "the token's \(what) is not a base64url JSON object")
        }
        return value
    }

    /// `aud` as a string or an array of strings.
    private static func audiences(_ claims: JSONValue) throws(ChatError) -> [String] {
        switch claims["aud"] {
        case .none: return []
        case .string(let value)?: return [value]
        case .array(let values)?:
            let strings = values.compactMap(\.stringValue)
            guard strings.count == values.count else { throw ChatError(.tokenMalformed, "aud must hold strings") }
            return strings
        default: throw ChatError(.tokenMalformed, "aud must be a string or an array of strings")
        }
    }

    /// A NumericDate: whole seconds (fractions are truncated).
    private static func seconds(_ value: JSONValue?) -> Int64? {
        guard let double = value?.doubleValue, double.isFinite, abs(double) < 1e15 else { return nil }
        return Int64(double)
    }
}
