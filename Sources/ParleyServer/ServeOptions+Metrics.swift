extension ServeOptions {
    /// Flags of the metrics endpoint beyond its token.
    static let metricsFlags: [Flag] = [
        Flag(
            name: "--metrics-address", environment: "PARLEY_METRICS_ADDRESS", placeholder: "HOST:PORT",
            help:
                "Serve GET /metrics on this address instead of the public port, which then answers it 404 (on loopback no token is needed unless one is set)"
        ) {
            o, v throws(ServeOptionsError) in
            _ = try metricsListener(v)
            o.metricsAddress = v
        }
    ]

    /// The host and port of ``metricsAddress``, when one is set.
    var metricsListen: (host: String, port: Int)? {
        metricsAddress.flatMap { try? Self.metricsListener($0) }
    }

    /// Splits `HOST:PORT` (`127.0.0.1:9101`, `[::1]:9101`, `0.0.0.0:9101`).
    static func metricsListener(_ text: String) throws(ServeOptionsError) -> (host: String, port: Int) {
        let invalid = ServeOptionsError(
            code: "invalid_value",
            message: "--metrics-address must be HOST:PORT (127.0.0.1:9101, [::1]:9101), not '\(text)'")
        guard let colon = text.lastIndex(of: ":") else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("[") && !host.contains("]"),
            let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { throw invalid }
        return (host, port)
    }
}
