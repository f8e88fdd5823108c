extension ServeOptions {
    /// Flags for running the server in production: port handover.
    static let operationsFlags: [Flag] = [
        Flag(name: "--reuse-port", environment: "PARLEY_REUSE_PORT", placeholder: nil,
             help: "Share the port with a parley already listening there, to replace it without a gap (default: refuse a port in use)") {
            o, v throws(ServeOptionsError) in o.reusePort = try boolean(v, flag: "--reuse-port")
        },
    ]
}
