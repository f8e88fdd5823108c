import ParleyWireCore

/// Asks the app's backend for the user's token (`POST url` with `{"user_id": …}`, answered
/// by `{"token": …}` or `{"access_token": …}`) and renews it shortly before its `exp`.
///
/// Concurrent callers share one request; a refused token is replaced on `forceRefresh`.
/// A refusal (4xx) or an answer without a token fails with ``ParleyError/Code/authentication``;
/// an unreachable endpoint or a 5xx, 408 or 429 answer is transient (``ParleyError/isTransient``).
public actor HTTPTokenProvider: TokenProvider {
    private let url: String
    private let userID: String?
    private let headers: HTTPHeaders
    private let http: any HTTPTransport
    private let clock: any ParleyClock
    private let renewalMargin: Int64
    private var cached: (token: String, expiresAt: Int64?)?
    private var inFlight: Task<Result<String, ParleyError>, Never>?

    /// Creates a provider asking `url` for `userID`'s token; it renews `renewBefore` before expiry.
    public init(
        url: String, userID: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
        http: any HTTPTransport = PlatformTransports.http(), clock: any ParleyClock = SystemClock(),
        renewBefore: Duration = .seconds(60)
    ) {
        self.url = url
        self.userID = userID
        self.headers = headers
        self.http = http
        self.clock = clock
        renewalMargin = renewBefore.components.seconds * 1000
    }

    /// The user's token; a new one when `forceRefresh` (the server refused the last).
    public func token(forceRefresh: Bool) async throws(ParleyError) -> String {
        if !forceRefresh, let cached, isFresh(cached.expiresAt) { return cached.token }
        if forceRefresh { cached = nil }
        let task: Task<Result<String, ParleyError>, Never>
        if let inFlight {
            task = inFlight
        } else {
            task = Task { await self.fetch() }
            inFlight = task
        }
        let result = await task.value
        if inFlight == task { inFlight = nil }
        return try result.get()
    }

    private func isFresh(_ expiresAt: Int64?) -> Bool {
        guard let expiresAt else { return true }
        return clock.now() < expiresAt * 1000 - renewalMargin
    }

    private func fetch() async -> Result<String, ParleyError> {
        var headers = self.headers
        headers.replace("Content-Type", "application/json")
        headers.replace("Accept", "application/json")
        let body: JSONValue = userID.map { .object(["user_id": .string($0)]) } ?? .object([:])
        do throws(ParleyError) {
            let response = try await http.send(
                HTTPRequestMessage(method: "POST", url: url, headers: headers, body: JSONWriter.serialize(body)))
            guard response.isSuccess else {
                return .failure(ParleyError(.authentication, "token endpoint answered \(response.status)", status: response.status))
            }
            let reader = try JSONReader(bytes: response.body, "token response")
            guard let token = reader.optionalString("token") ?? reader.optionalString("access_token") else {
                return .failure(ParleyError(.authentication, "token response has no token"))
            }
            let expiresAt =
                JWTClaims(token: token)?.expiresAt
                ?? reader.optionalInt64("expires_in").map { clock.now() / 1000 + $0 }
            cached = (token, expiresAt)
            return .success(token)
        } catch  where error.isTransient {
            // The endpoint could not be reached: the caller retries later, it is no refusal.
            return .failure(ParleyError(error.code, "token request failed: \(error.message)", status: error.status))
        } catch {
            return .failure(ParleyError(.authentication, "token request failed: \(error.message)", status: error.status))
        }
    }
}
