import ParleyNet

/// Turns SIGINT/SIGTERM into a graceful shutdown of the server, and SIGHUP into a reload of
/// its TLS certificate and of the apps in its config file (connections stay up).
enum ShutdownSignalsBridge {
    static func install(server: ParleyServer, logger: Logger) throws(NetError) {
        try ShutdownSignals.install(on: server.group.loops[0], signals: [.interrupt, .terminate, .hangup]) { signal in
            if signal == .hangup {
                server.reloadTLS()
                server.reloadApps()
                return
            }
            logger.info("shutting down", [("signal", signal == .interrupt ? "SIGINT" : "SIGTERM"),
                                          ("grace_seconds", "\(server.options.shutdownGraceSeconds)")])
            server.shutdown()
        }
    }
}
