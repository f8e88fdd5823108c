import ParleyChannels
import ParleyWire

/// The CORS policies of the chat API. A request whose credentials name an app is answered by
/// that app's own origins; a preflight carries no credentials, so it (and an answer to a
/// request whose app is not known, such as a refused token) is decided by every app's
/// origins together. `--dev` adds every loopback origin.
struct CORSRules: Sendable {
    let byApp: [String: CORSPolicy]
    /// What any app allows.
    let anyApp: CORSPolicy

    init(apps: [AppConfig], allowLoopback: Bool) {
        var byApp: [String: CORSPolicy] = [:]
        var anyApp = CORSPolicy(allowsLoopback: allowLoopback)
        for app in apps {
            let policy = CORSPolicy(origins: app.corsOrigins, allowsLoopback: allowLoopback)
            byApp[app.id] = policy
            anyApp = anyApp.union(policy)
        }
        self.byApp = byApp
        self.anyApp = anyApp
    }

    /// Whether no origin is allowed anywhere (then requests skip the CORS work altogether).
    var isEmpty: Bool { anyApp.isEmpty }

    /// The policy for a request authenticated for `app` (nil: not known).
    func policy(forApp app: String?) -> CORSPolicy {
        app.flatMap { byApp[$0] } ?? anyApp
    }

    /// `headers` with the CORS fields for a request from `origin` (nil: no Origin header).
    func decorate(_ headers: HTTPHeaders, origin: String?, app: String?) -> HTTPHeaders {
        guard let origin, !isEmpty else { return headers }
        var headers = headers
        for field in policy(forApp: app).responseHeaders(origin: origin) { headers.add(field.name, field.value) }
        return headers
    }
}
