extension ServeOptions {
    /// Flags for running the server in production: port handover, logging.
    static let operationsFlags: [Flag] = [
        Flag(
            name: "--reuse-port", environment: "PARLEY_REUSE_PORT", placeholder: nil,
            help: "Share the port with a parley already listening there, to replace it without a gap (default: refuse a port in use)"
        ) {
            o, v throws(ServeOptionsError) in o.reusePort = try boolean(v, flag: "--reuse-port")
        },
        Flag(
            name: "--log-level", environment: "PARLEY_LOG_LEVEL", placeholder: "debug|info|warning|error",
            help: "Lowest level of log line written (default info)"
        ) { o, v throws(ServeOptionsError) in
            guard let level = Logger.Level(rawValue: v) else {
                throw ServeOptionsError(code: "invalid_value", message: "--log-level must be debug, info, warning or error, not '\(v)'")
            }
            o.logLevel = level
        },
        Flag(
            name: "--log-format", environment: "PARLEY_LOG_FORMAT", placeholder: "logfmt|json",
            help: "Log lines as key=value pairs or as one JSON object each (default logfmt)"
        ) { o, v throws(ServeOptionsError) in
            guard let format = LogFormat(rawValue: v) else {
                throw ServeOptionsError(code: "invalid_value", message: "--log-format must be logfmt or json, not '\(v)'")
            }
            o.logFormat = format
        },
        Flag(
            name: "--no-access-log", environment: "PARLEY_NO_ACCESS_LOG", placeholder: nil,
            help: "Write no line per HTTP request (default: one info line each, component=access)"
        ) {
            o, v throws(ServeOptionsError) in o.accessLog = try !boolean(v, flag: "--no-access-log")
        }
    ]
}
