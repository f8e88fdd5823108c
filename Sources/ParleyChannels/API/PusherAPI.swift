import ParleyWire

/// The Pusher HTTP API (spec section 7) as a function from request to response over a hub.
public struct PusherAPI: Sendable {
    /// The hosted apps.
    public let apps: AppRegistry
    /// The hub events are published to and channels are read from.
    public let hub: any ChannelHub
    /// The wall clock in Unix seconds (for the timestamp window).
    public let unixTime: @Sendable () -> Int64
    /// Counters.
    public let metrics: ChannelsMetrics

    /// Creates the API.
    public init(apps: AppRegistry, hub: any ChannelHub, unixTime: @escaping @Sendable () -> Int64, metrics: ChannelsMetrics) {
        self.apps = apps
        self.hub = hub
        self.unixTime = unixTime
        self.metrics = metrics
    }

    /// Whether a path belongs to this API (`/apps/...` or `/users/.../terminate_connections`).
    public static func handles(path: String) -> Bool {
        path.hasPrefix("/apps/") || (path.hasPrefix("/users/") && path.hasSuffix("/terminate_connections"))
    }

    /// Answers one request.
    public func handle(_ request: PusherAPIRequest) -> PusherAPIResponse {
        var app: AppConfig?
        let response = route(request, app: &app)
        count(response, app: app)
        return response
    }

    /// Counts an answered request under the app it named, if it named a hosted one.
    func count(_ response: PusherAPIResponse, app: AppConfig?) {
        let traffic = app.map { metrics.app($0.id) } ?? metrics.unattributed
        ChannelsMetrics.add(traffic.apiRequests)
        if response.status >= 400 { ChannelsMetrics.add(traffic.apiErrors) }
    }

    /// The refusal of a request whose body is still to come, judged from its head alone: an
    /// unknown app or key, a stale or forged signature, a disabled app. Nil lets the body be
    /// read (its MD5 and everything else are checked by ``handle(_:)``). A stranger can then
    /// make the server read no more of a body than the head it sent.
    public func refusalBeforeBody(_ request: PusherAPIRequest) -> PusherAPIResponse? {
        var app: AppConfig?
        let refusal = refusalBeforeBody(request, app: &app)
        if let refusal { count(refusal, app: app) }
        return refusal
    }

    private func refusalBeforeBody(_ request: PusherAPIRequest, app named: inout AppConfig?) -> PusherAPIResponse? {
        guard let decoded = Self.decodedSegments(request.path) else { return .error(400, "Malformed path") }
        let app: AppConfig
        if decoded.count == 3, decoded[0] == "users", decoded[2] == "terminate_connections" {
            guard let key = request.query["auth_key"], let found = apps.app(key: key) else { return .error(401, "Unknown auth_key") }
            app = found
        } else {
            guard decoded.count >= 3, decoded[0] == "apps" else { return .error(404, "Not found") }
            guard let found = apps.app(id: decoded[1]) else { return .error(404, "Unknown app \(decoded[1])") }
            app = found
        }
        named = app
        guard let key = request.query["auth_key"] else { return .error(401, "Missing auth_key parameter") }
        guard Digest.constantTimeEqual(Array(key.utf8), Array(app.key.utf8)) else {
            return .error(401, "auth_key does not belong to app \(app.id)")
        }
        let now = unixTime()
        if let failure = app.failureWithEverySecret({
            PusherRequestSignature.verifyHead(method: request.method, path: request.path, query: request.query, secret: $0, now: now)
        }) {
            return .error(401, failure.message)
        }
        guard app.enabled else { return .error(403, "App \(app.id) is disabled") }
        return nil
    }

    private func route(_ request: PusherAPIRequest, app named: inout AppConfig?) -> PusherAPIResponse {
        guard let decoded = Self.decodedSegments(request.path) else { return .error(400, "Malformed path") }
        // /users/{uid}/terminate_connections: the app is found by auth_key.
        if decoded.count == 3, decoded[0] == "users", decoded[2] == "terminate_connections" {
            guard let key = request.query["auth_key"], let app = apps.app(key: key) else { return .error(401, "Unknown auth_key") }
            named = app
            return authorised(request, app: app) { terminate(app: app, userID: decoded[1], request) }
        }
        guard decoded.count >= 3, decoded[0] == "apps" else { return .error(404, "Not found") }
        guard let app = apps.app(id: decoded[1]) else { return .error(404, "Unknown app \(decoded[1])") }
        named = app
        let rest = Array(decoded.dropFirst(2))
        return authorised(request, app: app) {
            switch (request.method, rest.count, rest[0]) {
            case ("POST", 1, "events"): return events(app: app, request)
            case ("POST", 1, "batch_events"): return batchEvents(app: app, request)
            case ("GET", 1, "channels"): return channels(app: app, request)
            case ("GET", 2, "channels"): return channel(app: app, name: rest[1], request)
            case ("GET", 3, "channels") where rest[2] == "users": return users(app: app, channel: rest[1])
            case ("POST", 3, "users") where rest[2] == "terminate_connections": return terminate(app: app, userID: rest[1], request)
            default: return .error(404, "Not found: \(request.method) \(request.path)")
            }
        }
    }

    /// The path's segments after the leading one, percent-decoded; nil when one holds a `+` or a
    /// malformed escape. Every API request routes here, so segments without escapes (all of
    /// them, in practice) are cut out of the UTF-8 view directly instead of being decoded.
    static func decodedSegments(_ path: String) -> [String]? {
        var out: [String] = []
        out.reserveCapacity(4)
        var utf8 = path.utf8[...]
        // The part before the first "/" (empty for an absolute path) is not a segment.
        guard let first = utf8.firstIndex(of: UInt8(ascii: "/")) else { return out }
        utf8 = utf8[utf8.index(after: first)...]
        while true {
            let end = utf8.firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
            let segment = utf8[..<end]
            if segment.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
                // A "+" is refused as a Character, as before (one followed by a combining mark is not one).
                guard !Substring(segment).contains("+"), let decoded = PusherQuery.percentDecode(Substring(segment)) else { return nil }
                out.append(decoded)
            } else {
                out.append(String(Substring(segment)))
            }
            guard end < utf8.endIndex else { return out }
            utf8 = utf8[utf8.index(after: end)...]
        }
    }

    /// Checks the key, the signature window and body MD5, then whether the app is enabled.
    private func authorised(_ request: PusherAPIRequest, app: AppConfig, _ body: () -> PusherAPIResponse) -> PusherAPIResponse {
        guard let key = request.query["auth_key"] else { return .error(401, "Missing auth_key parameter") }
        guard Digest.constantTimeEqual(Array(key.utf8), Array(app.key.utf8)) else {
            return .error(401, "auth_key does not belong to app \(app.id)")
        }
        let now = unixTime()
        if let failure = app.failureWithEverySecret({
            PusherRequestSignature.verify(
                method: request.method, path: request.path, query: request.query, body: request.body, secret: $0, now: now)
        }) {
            return .error(401, failure.message)
        }
        guard app.enabled else { return .error(403, "App \(app.id) is disabled") }
        return body()
    }
}
