/// The verified claims of a user token.
public struct UserToken: Sendable, Hashable {
    /// The app the token was minted for (`aud`).
    public var appID: String
    /// The user (`sub`).
    public var userID: String
    /// When it was issued (`iat`, seconds since the Unix epoch), if stated.
    public var issuedAt: Int64?
    /// When it expires (`exp`, seconds since the Unix epoch).
    public var expiresAt: Int64

    /// Creates a claims value.
    public init(appID: String, userID: String, issuedAt: Int64?, expiresAt: Int64) {
        self.appID = appID
        self.userID = userID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
