/// Supplies the signed-in user's token (a JWT the app's backend or the server minted).
public protocol TokenProvider: Sendable {
    /// A valid token; `forceRefresh` asks for a new one after the server refused the last.
    func token(forceRefresh: Bool) async throws(ParleyError) -> String
}

extension TokenProvider {
    /// A valid token, cached when possible.
    public func token() async throws(ParleyError) -> String { try await token(forceRefresh: false) }
}
