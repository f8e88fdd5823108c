/// User tokens for transports other than the REST API (a y-websocket endpoint, for one).
extension ChatService {
    /// Verifies a user token exactly as the REST API does (HS256 signature with the app
    /// secret, audience, expiry); `expectedApp`, when given, must be the token's app.
    /// Throws the 401 error the REST API would answer with.
    public func verifyUserToken(_ token: String, expectedApp: String? = nil) throws(ChatError) -> UserToken {
        try verifier.verify(token, now: nowSeconds, expectedApp: expectedApp).1
    }
}

extension ChatService {
    /// The apps were reloaded: tokens verified before must be verified again (their app may
    /// be gone or no longer accept the secret they were signed with).
    public func appsReloaded() {
        verifier.cache.forgetAll()
    }
}
