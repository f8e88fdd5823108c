import ParleyWire

/// Mints user tokens: JWTs signed HS256 with the app secret, `sub` the user, `aud` the app id.
///
/// This is what an app's backend does in its `/auth` endpoint; `parley token` and the dev
/// endpoint use it too.
public struct TokenMinter: Sendable {
    /// The app id written into `aud`.
    public let appID: String
    private let secret: [UInt8]

    /// A minter for one app.
    public init(appID: String, secret: String) {
        self.appID = appID
        self.secret = Array(secret.utf8)
    }

    /// A token for `userID`, issued at `now` and valid for `lifetime` (both in seconds).
    public func mint(userID: String, now: Int64, lifetime: Int64) -> String {
        let claims: JSONValue = .object([
            "sub": .string(userID), "aud": .string(appID),
            "iat": .number(String(now)), "exp": .number(String(now + lifetime))
        ])
        return Self.sign(header: Self.header, claims: claims, secret: secret)
    }

    /// The fixed JOSE header of every minted token.
    static let header: JSONValue = .object(["alg": .string("HS256"), "typ": .string("JWT")])

    /// Signs any header and claims (tests use it to craft odd tokens).
    static func sign(header: JSONValue, claims: JSONValue, secret: [UInt8]) -> String {
        let signingInput = Base64URL.encode(JSONWriter.serialize(header)) + "." + Base64URL.encode(JSONWriter.serialize(claims))
        return signingInput + "." + Base64URL.encode(Digest.hmacSHA256(key: secret, Array(signingInput.utf8)))
    }
}
