/// Always the same token: for tests, scripts and the terminal client's `--token`.
public struct StaticTokenProvider: TokenProvider {
    /// The token.
    public let value: String

    /// Creates a provider of `token`.
    public init(_ token: String) { value = token }

    /// The user's token; a new one when `forceRefresh` (the server refused the last).
    public func token(forceRefresh: Bool) async throws(ParleyError) -> String { value }
}
