import ParleyWireCore

/// Signs in by name against a server in development mode (`parley serve --dev`): creates (or
/// finds) the user with `POST /v1/dev/users {name}`, then asks `POST /v1/dev/token {user_id}`.
/// A refused token is replaced on `forceRefresh`.
///
/// For development and samples only: a server in development mode hands anyone a token for
/// any name. Production apps use ``HTTPTokenProvider`` against their own backend.
public actor DevTokenProvider: TokenProvider {
    private let serverURL: String
    private let name: String
    private let appID: String?
    private let http: any HTTPTransport
    private var userID: String?
    private var cached: String?

    /// Creates a provider for the user called `name` on `serverURL`.
    public init(serverURL: String, name: String, appID: String? = nil, http: any HTTPTransport = PlatformTransports.http()) {
        self.serverURL = serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL
        self.name = name
        self.appID = appID
        self.http = http
    }

    /// The user's token, signing in (creating the user) the first time.
    public func token(forceRefresh: Bool) async throws(ParleyError) -> String {
        if !forceRefresh, let cached { return cached }
        let id: String
        if let userID {
            id = userID
        } else {
            let user = try await post("/v1/dev/users", ["name": .string(name)])
            guard let created = user["id"]?.stringValue else { throw ParleyError(.authentication, "dev sign-in: no user id in the answer") }
            userID = created
            id = created
        }
        let answer = try await post("/v1/dev/token", ["user_id": .string(id)])
        guard let token = answer["token"]?.stringValue else { throw ParleyError(.authentication, "dev sign-in: no token in the answer") }
        cached = token
        return token
    }

    private func post(_ path: String, _ body: JSONObject) async throws(ParleyError) -> JSONValue {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        headers.add("Accept", "application/json")
        if let appID { headers.add("X-Parley-App", appID) }
        let response = try await http.send(
            HTTPRequestMessage(
                method: "POST", url: serverURL + path, headers: headers,
                body: JSONWriter.serialize(.object(body))))
        let json: JSONValue?
        do { json = try JSONParser.parse(response.body) } catch { json = nil }  // not JSON (a proxy's page): the status says it
        guard response.isSuccess, let json else {
            let message = json?["error"]?["message"]?.stringValue ?? "HTTP \(response.status)"
            let hint = response.status == 404 ? " (is the server running with --dev?)" : ""
            throw ParleyError(
                .authentication, "dev sign-in: \(path) answered \(message)\(hint)", status: response.status,
                serverCode: json?["error"]?["code"]?.stringValue)
        }
        return json
    }
}
