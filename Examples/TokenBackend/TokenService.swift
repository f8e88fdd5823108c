import ParleyChat
import ParleyKit
import ParleyNet
import ParleyWire

/// The backend's two endpoints, as the tutorials' `/users` and `/auth` flow:
/// `POST /users {"name"}` creates the user, `POST /token {"user_id"}` issues its token.
struct TokenService: Sendable {
    let options: BackendOptions
    let admin: ParleyAdmin
    let minter: TokenMinter
    let now: @Sendable () -> Int64

    init(options: BackendOptions, http: any HTTPTransport = SocketHTTPTransport(), now: @escaping @Sendable () -> Int64) {
        self.options = options
        admin = ParleyAdmin(options: options, http: http)
        minter = TokenMinter(appID: options.appID, secret: options.appSecret)
        self.now = now
    }

    /// The routes to mount.
    func routes() -> HTTPRoutes {
        var routes = HTTPRoutes()
        routes.get("/healthz") { _, responder in responder.respond(.json(#"{"status":"ok"}"#)) }
        routes.post("/users", maxBodySize: 4096) { request, responder in
            Task { responder.respond(await self.answer { () throws(BackendError) in try await self.createUser(request.body) }) }
        }
        for path in ["/token", "/auth"] {
            routes.post(path, maxBodySize: 4096) { request, responder in
                Task {
                    var response = await self.answer { () throws(BackendError) in try await self.issueToken(request.body) }
                    self.allowCrossOrigin(&response, request: request)
                    responder.respond(response)
                }
            }
            // A browser page on the allowed origin (Parley Web) asks first whether it may.
            routes.add(.OPTIONS, path, maxBodySize: 0) { request, responder in
                var response = HTTPResponse(status: HTTPStatus(204))
                if self.allowCrossOrigin(&response, request: request) {
                    response.headers.add("Access-Control-Allow-Methods", "POST")
                    response.headers.add("Access-Control-Allow-Headers", "Content-Type")
                    response.headers.add("Access-Control-Max-Age", "600")
                }
                responder.respond(response)
            }
        }
        return routes
    }

    /// `{"name", "id"?}` → the Parley user (its id from the name unless given).
    func createUser(_ body: [UInt8]) async throws(BackendError) -> (Int, JSONValue) {
        let json = try Self.object(body)
        guard let name = json["name"]?.stringValue, !name.isEmpty else {
            throw BackendError(status: 422, code: "name_required", message: "send {\"name\": …}")
        }
        let id = json["id"]?.stringValue ?? Self.slug(name)
        return (201, try await admin.ensureUser(id: id, name: name))
    }

    /// `{"user_id"}` → `{"token", "user_id", "expires_in"}`; the user is created on first use.
    func issueToken(_ body: [UInt8]) async throws(BackendError) -> (Int, JSONValue) {
        let json = try Self.object(body)
        guard let userID = json["user_id"]?.stringValue, !userID.isEmpty else {
            throw BackendError(status: 422, code: "user_id_required", message: "send {\"user_id\": …}")
        }
        _ = try await admin.ensureUser(id: userID, name: json["name"]?.stringValue ?? userID)
        let token = minter.mint(userID: userID, now: now(), lifetime: options.tokenLifetime)
        return (
            200,
            .object([
                "token": .string(token), "user_id": .string(userID),
                "expires_in": .number(String(options.tokenLifetime))
            ])
        )
    }

    /// Adds `Access-Control-Allow-Origin` when the request comes from `--allow-origin`.
    @discardableResult
    private func allowCrossOrigin(_ response: inout HTTPResponse, request: HTTPRequest) -> Bool {
        response.headers.add("Vary", "Origin")
        guard let origin = request.headers.first("Origin"), let allowed = options.allowedOrigin, origin == allowed else { return false }
        response.headers.add("Access-Control-Allow-Origin", origin)
        return true
    }

    private func answer(_ work: () async throws(BackendError) -> (Int, JSONValue)) async -> HTTPResponse {
        do {
            let (status, json) = try await work()
            return .json(JSONWriter.serialize(json), status: HTTPStatus(status))
        } catch {
            return .error(HTTPStatus(error.status), code: error.code, message: error.message)
        }
    }

    private static func object(_ body: [UInt8]) throws(BackendError) -> JSONValue {
        guard let json = try? JSONParser.parse(body), json.objectValue != nil else {
            throw BackendError(status: 400, code: "invalid_json", message: "the body must be a JSON object")
        }
        return json
    }

    /// A user id from a name: lowercase letters and digits, other runs as `-`.
    static func slug(_ name: String) -> String {
        var out = ""
        for character in name.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                out.append(character)
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? "user" : String(out.prefix(64))
    }
}
