/// Everything `parley serve` can be told, from flags and `PARLEY_*` environment variables.
///
/// Precedence: a flag beats its environment variable, which beats the default.
public struct ServeOptions: Sendable, Equatable {
    /// Address to listen on.
    public var host: String = "127.0.0.1"
    /// TCP port to listen on.
    public var port: Int = 6001
    /// Directory holding the embedded database, attachments and documents.
    public var dataDirectory: String = "./parley-data"
    /// Event-loop threads; nil means one per core.
    public var threads: Int? = nil
    /// Readiness backend of the event loops.
    public var backend: Backend = .epoll
    /// Largest WebSocket message accepted, in bytes.
    public var maxMessageSize: Int = 64 * 1024
    /// Largest outbound queue per connection before the connection is dropped, in bytes;
    /// nil leaves it to the apps config (1 MiB unless it says otherwise).
    public var maxOutboundBytes: Int? = nil
    /// Whether WebSockets may agree permessage-deflate (each side resets after every message,
    /// so an idle connection holds no compression state).
    public var compression: Bool = true
    /// Seconds an HTTP connection may stay idle before it is closed.
    public var idleTimeoutSeconds: Int = 60
    /// Seconds the server waits for connections to drain on SIGINT/SIGTERM.
    public var shutdownGraceSeconds: Int = 5
    /// Path of the JSON apps configuration, if any.
    public var configPath: String? = nil
    /// Whether to run the built-in development app.
    public var dev: Bool = false
    /// The chat database: a `postgres://` URL or an SQLite file path; nil is SQLite in the data directory.
    public var database: String? = nil
    /// Writer connections to a PostgreSQL database (`--pg-writers`); nil keeps the store's default.
    public var postgresWriters: Int? = nil
    /// Sustained chat messages per second one user may send (burst: twice that); 0 turns the
    /// limit off; nil keeps the chat service's default.
    public var sendsPerSecond: Int? = nil
    /// Connection caps and request deadlines (`--max-connections`, `--head-timeout`, ...).
    public var edge = EdgeOptions()
    /// Attachment thumbnails (the config file's `"thumbnails"` object).
    public var thumbnails = ThumbnailOptions()
    /// The bearer token `GET /metrics` requires; nil leaves it to the config's `metrics_token`.
    public var metricsToken: String? = nil
    /// `HOST:PORT` of a listener of its own for `GET /metrics` (`--metrics-address`); nil
    /// serves it on the public port.
    public var metricsAddress: String? = nil
    /// PEM certificate (chain) to serve HTTPS/WSS with; nil serves plain HTTP.
    public var tlsCertificateFile: String? = nil
    /// PEM private key of ``tlsCertificateFile``.
    public var tlsKeyFile: String? = nil
    /// The browser chat client served at `/` (`--no-web`, `--web-app`, `--web-token-url`).
    public var web = WebOptions()
    /// Whether to share the port with a server already listening on it (`--reuse-port`, for a handover).
    public var reusePort: Bool = false
    /// Lowest level of log line written (`--log-level`).
    public var logLevel: Logger.Level = .info
    /// How log lines are written (`--log-format`).
    public var logFormat: LogFormat = .logfmt
    /// Whether every HTTP request gets an access log line (`--no-access-log` turns it off).
    public var accessLog: Bool = true
    /// The Redis bus to other nodes and this node's id (`--redis`, `--node-id`).
    public var cluster = ClusterOptions()
    /// Whether `--help` was asked for.
    public var showHelp: Bool = false

    /// The readiness backends an event loop can use.
    public enum Backend: String, Sendable, CaseIterable {
        /// Linux epoll (the default).
        case epoll
        /// Portable poll(2).
        case poll
    }

    /// Creates the defaults.
    public init() {}
}

/// Why a `parley serve` command line could not be understood.
public struct ServeOptionsError: Error, Equatable, CustomStringConvertible {
    /// A stable identifier of the problem.
    public let code: String
    /// What to tell the user.
    public let message: String
    public var description: String { message }
}

extension ServeOptions {
    /// One documented flag: its name, environment variable, value placeholder and help line.
    struct Flag: Sendable {
        let name: String
        let environment: String?
        let placeholder: String?
        let help: String
        let apply: @Sendable (inout ServeOptions, String) throws(ServeOptionsError) -> Void
    }

    static let flags: [Flag] =
        [
            Flag(
                name: "--host", environment: "PARLEY_HOST", placeholder: "ADDRESS",
                help: "Address to listen on (default 127.0.0.1)"
            ) { o, v throws(ServeOptionsError) in o.host = v },
            Flag(
                name: "--port", environment: "PARLEY_PORT", placeholder: "PORT",
                help: "TCP port to listen on (default 6001)"
            ) { o, v throws(ServeOptionsError) in
                o.port = try integer(v, flag: "--port", in: 0...65535)
            },
            Flag(
                name: "--data-dir", environment: "PARLEY_DATA_DIR", placeholder: "PATH",
                help: "Directory for the embedded database and files (default ./parley-data)"
            ) {
                o, v throws(ServeOptionsError) in o.dataDirectory = v
            },
            Flag(
                name: "--threads", environment: "PARLEY_THREADS", placeholder: "N",
                help: "Event-loop threads (default: one per core)"
            ) { o, v throws(ServeOptionsError) in
                o.threads = try integer(v, flag: "--threads", in: 1...256)
            },
            Flag(
                name: "--backend", environment: "PARLEY_BACKEND", placeholder: "epoll|poll",
                help: "Readiness backend of the event loops (default epoll)"
            ) { o, v throws(ServeOptionsError) in
                guard let b = Backend(rawValue: v) else {
                    throw ServeOptionsError(code: "invalid_value", message: "--backend must be epoll or poll, not '\(v)'")
                }
                o.backend = b
            },
            Flag(
                name: "--max-message-size", environment: "PARLEY_MAX_MESSAGE_SIZE", placeholder: "BYTES",
                help: "Largest WebSocket message accepted (default 65536; larger closes with 1009)"
            ) {
                o, v throws(ServeOptionsError) in
                o.maxMessageSize = try integer(v, flag: "--max-message-size", in: 125...(256 * 1024 * 1024))
            },
            Flag(
                name: "--max-outbound", environment: "PARLEY_MAX_OUTBOUND", placeholder: "BYTES",
                help: "Outbound queue bound per connection (default: the config's, else 1048576)"
            ) { o, v throws(ServeOptionsError) in
                o.maxOutboundBytes = try integer(v, flag: "--max-outbound", in: 1024...(1024 * 1024 * 1024))
            },
            Flag(
                name: "--no-compression", environment: "PARLEY_NO_COMPRESSION", placeholder: nil,
                help: "Refuse permessage-deflate on WebSockets (default: agree it, without context takeover)"
            ) {
                o, v throws(ServeOptionsError) in o.compression = try !boolean(v, flag: "--no-compression")
            },
            Flag(
                name: "--idle-timeout", environment: "PARLEY_IDLE_TIMEOUT", placeholder: "SECONDS",
                help: "Close HTTP connections idle this long (default 60)"
            ) { o, v throws(ServeOptionsError) in
                o.idleTimeoutSeconds = try integer(v, flag: "--idle-timeout", in: 1...86_400)
            },
            Flag(
                name: "--shutdown-grace", environment: "PARLEY_SHUTDOWN_GRACE", placeholder: "SECONDS",
                help: "Longest wait for connections to drain on SIGINT/SIGTERM (default 5)"
            ) {
                o, v throws(ServeOptionsError) in
                o.shutdownGraceSeconds = try integer(v, flag: "--shutdown-grace", in: 0...600)
            },
            Flag(
                name: "--config", environment: "PARLEY_CONFIG", placeholder: "FILE",
                help: "JSON file describing the apps this server hosts"
            ) { o, v throws(ServeOptionsError) in
                o.configPath = v
            },
            Flag(
                name: "--database", environment: "PARLEY_DATABASE", placeholder: "URL",
                help: "Chat database: postgres://… URL or SQLite file (default: parley.sqlite in --data-dir)"
            ) {
                o, v throws(ServeOptionsError) in o.database = v
            },
            Flag(
                name: "--send-rate", environment: "PARLEY_SEND_RATE", placeholder: "PER_SECOND",
                help:
                    "Chat messages per second one user may send in every app, bursts of twice that (default: each app's limits.rates.messages, 20; 0: no limit)"
            ) {
                o, v throws(ServeOptionsError) in o.sendsPerSecond = try integer(v, flag: "--send-rate", in: 0...1_000_000)
            },
            Flag(
                name: "--metrics-token", environment: "PARLEY_METRICS_TOKEN", placeholder: "TOKEN",
                help: "Bearer token GET /metrics requires (default: the config's metrics_token; none: only --dev on loopback reads it)"
            ) {
                o, v throws(ServeOptionsError) in o.metricsToken = v
            },
            Flag(
                name: "--tls-cert", environment: "PARLEY_TLS_CERT", placeholder: "FILE",
                help: "Serve HTTPS/WSS with this PEM certificate chain (with --tls-key; SIGHUP reloads)"
            ) {
                o, v throws(ServeOptionsError) in o.tlsCertificateFile = v
            },
            Flag(
                name: "--tls-key", environment: "PARLEY_TLS_KEY", placeholder: "FILE",
                help: "PEM private key of --tls-cert"
            ) { o, v throws(ServeOptionsError) in o.tlsKeyFile = v },
            Flag(
                name: "--dev", environment: "PARLEY_DEV", placeholder: nil,
                help: "Run one development app (id 1, key dev-key, secret dev-secret)"
            ) {
                o, v throws(ServeOptionsError) in o.dev = try boolean(v, flag: "--dev")
            }
        ] + edgeFlags + webFlags + operationsFlags + metricsFlags + clusterFlags + storeFlags

    /// Parses `parley serve` arguments (without the leading `serve`) over the environment.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(ServeOptionsError)
        -> ServeOptions
    {
        var options = ServeOptions()
        for flag in flags {
            if let env = flag.environment, let value = environment[env], !value.isEmpty {
                try flag.apply(&options, value)
            }
        }
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" { options.showHelp = true; continue }
            let (name, inlineValue) = splitInlineValue(argument)
            guard let flag = flags.first(where: { $0.name == name }) else {
                throw ServeOptionsError(code: "unknown_flag", message: "unknown option '\(name)' (see parley serve --help)")
            }
            if flag.placeholder == nil {
                try flag.apply(&options, inlineValue ?? "true")
                continue
            }
            guard let value = inlineValue ?? rest.popFirst() else {
                throw ServeOptionsError(code: "missing_value", message: "\(flag.name) needs a value (\(flag.placeholder!))")
            }
            try flag.apply(&options, value)
        }
        try options.validateTLS()
        return options
    }

    /// The text `parley serve --help` prints: every flag with its environment variable.
    public static var helpText: String {
        var lines = [
            "USAGE: parley serve [options]",
            "",
            "Runs the Parley server: HTTP and WebSocket on one port, data kept under --data-dir.",
            "Every option can also come from its environment variable; a flag wins over it.",
            "",
            "OPTIONS:"
        ]
        for flag in flags {
            let left = flag.name + (flag.placeholder.map { " \($0)" } ?? "")
            let env = flag.environment.map { "  [\($0)]" } ?? ""
            lines.append("  " + left.padding(toLength: 26) + flag.help + env)
        }
        lines.append("  " + "-h, --help".padding(toLength: 26) + "Show this help")
        return lines.joined(separator: "\n")
    }

    private static func splitInlineValue(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
    }

    static func integer(_ text: String, flag: String, in range: ClosedRange<Int>) throws(ServeOptionsError) -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw ServeOptionsError(
                code: "invalid_value",
                message: "\(flag) must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return n
    }

    static func boolean(_ text: String, flag: String) throws(ServeOptionsError) -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ServeOptionsError(code: "invalid_value", message: "\(flag) must be true or false, not '\(text)'")
        }
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
