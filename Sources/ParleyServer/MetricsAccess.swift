import ParleyChannels
import ParleyWire

/// Who may read `GET /metrics`: its counters describe the server's load and users, so they are
/// not for everyone who can reach the port.
///
/// With a token (`--metrics-token`, `PARLEY_METRICS_TOKEN`, or `metrics_token` in the config;
/// the flag wins) the request must send `Authorization: Bearer TOKEN`. Without one, only a
/// `--dev` server listening on a loopback address answers openly; any other server refuses
/// every request until a token is set. A listener of its own (`--metrics-address`) on a
/// loopback address answers openly too.
struct MetricsAccess: Sendable, Equatable {
    /// The decision for a server.
    enum Rule: Sendable, Equatable {
        /// Anyone may read (dev mode on loopback, no token set).
        case open
        /// Only requests bearing this token.
        case token(String)
        /// Nobody: no token is set and the server is not a loopback dev server.
        case closed
    }

    /// The rule in force.
    let rule: Rule

    /// The rule for a server started with `options` and `config`. `listenerHost` is the host
    /// of a listener of the metrics' own (`--metrics-address`): on loopback only this machine
    /// reaches it, so without a token it answers openly.
    init(options: ServeOptions, config: ChannelsConfig?, listenerHost: String? = nil) {
        if let token = options.metricsToken ?? config?.metricsToken, !token.isEmpty {
            rule = .token(token)
        } else if let listenerHost {
            rule = Self.isLoopback(listenerHost) ? .open : .closed
        } else {
            rule = options.dev && Self.isLoopback(options.host) ? .open : .closed
        }
    }

    /// Whether a request with this `Authorization` header value may read the metrics.
    func admits(authorization: String?) -> Bool {
        switch rule {
        case .open: return true
        case .closed: return false
        case .token(let token):
            guard let authorization, authorization.utf8.count > 7,
                HTTPHeaders.namesEqual(String(authorization.prefix(7)), "Bearer ")
            else { return false }
            return Digest.constantTimeEqual(Array(authorization.utf8.dropFirst(7)), Array(token.utf8))
        }
    }

    /// The 401 answer for a request that may not read.
    var refusal: (message: String, headers: HTTPHeaders) {
        var headers = HTTPHeaders()
        headers.add("WWW-Authenticate", "Bearer realm=\"metrics\"")
        switch rule {
        case .token, .open:
            return ("send the metrics token: Authorization: Bearer TOKEN", headers)
        case .closed:
            return ("metrics need a token: start the server with --metrics-token (or metrics_token in the config)", headers)
        }
    }

    /// 127.0.0.0/8, ::1 and `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
