extension ServeOptions {
    /// The flags of ``EdgeOptions``: connection caps and request deadlines.
    static let edgeFlags: [Flag] = [
        Flag(
            name: "--max-connections", environment: "PARLEY_MAX_CONNECTIONS", placeholder: "N",
            help: "Most open connections; more get 503 + Retry-After (default: from the open-file limit)"
        ) {
            o, v throws(ServeOptionsError) in o.edge.maxConnections = try integer(v, flag: "--max-connections", in: 1...10_000_000)
        },
        Flag(
            name: "--max-connections-per-ip", environment: "PARLEY_MAX_CONNECTIONS_PER_IP", placeholder: "N",
            help: "Most open connections per client address, IPv6 per /64 (default 256; 0: no cap)"
        ) {
            o, v throws(ServeOptionsError) in
            o.edge.maxConnectionsPerIP = try integer(v, flag: "--max-connections-per-ip", in: 0...10_000_000)
        },
        Flag(
            name: "--limit-loopback", environment: "PARLEY_LIMIT_LOOPBACK", placeholder: nil,
            help: "Apply the per-address cap to loopback clients too (default: they are exempt)"
        ) {
            o, v throws(ServeOptionsError) in o.edge.limitLoopback = try boolean(v, flag: "--limit-loopback")
        },
        Flag(
            name: "--head-timeout", environment: "PARLEY_HEAD_TIMEOUT", placeholder: "SECONDS",
            help: "Longest a request head may take from its first byte; 408 after (default 10)"
        ) {
            o, v throws(ServeOptionsError) in o.edge.headTimeoutSeconds = try integer(v, flag: "--head-timeout", in: 1...3600)
        },
        Flag(
            name: "--body-timeout", environment: "PARLEY_BODY_TIMEOUT", placeholder: "SECONDS",
            help: "Longest a request body may take after its head; 408 after (default 300; 0: no bound)"
        ) {
            o, v throws(ServeOptionsError) in o.edge.bodyTimeoutSeconds = try integer(v, flag: "--body-timeout", in: 0...86_400)
        },
        Flag(
            name: "--min-body-rate", environment: "PARLEY_MIN_BODY_RATE", placeholder: "BYTES",
            help: "Least body bytes/s after a grace period of --head-timeout; 408 below (default 1024; 0: none)"
        ) {
            o, v throws(ServeOptionsError) in o.edge.minBodyRate = try integer(v, flag: "--min-body-rate", in: 0...(1 << 30))
        },
        Flag(
            name: "--trusted-proxy", environment: "PARLEY_TRUSTED_PROXIES", placeholder: "CIDR",
            help: "Believe X-Forwarded-For from peers in this range (repeatable, or comma-separated; default: from nobody)"
        ) {
            o, v throws(ServeOptionsError) in
            let ranges = v.split(separator: ",").map { String($0.filter { $0 != " " }) }
            guard !ranges.isEmpty, EdgeOptions.trustedProxies(ranges) != nil else {
                throw ServeOptionsError(
                    code: "invalid_value", message: "--trusted-proxy must be an address or CIDR range (10.0.0.0/8, ::1), not '\(v)'")
            }
            o.edge.trustedProxies = (o.edge.trustedProxies ?? []) + ranges
        }
    ]
}
