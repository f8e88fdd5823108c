import ParleyNet

/// Turns SIGINT/SIGTERM into a graceful shutdown of the server, and SIGHUP into a reload of
/// its TLS certificate and of the apps and thumbnail settings in its config file (connections
/// stay up); a service
/// manager listening on `NOTIFY_SOCKET` hears of both.
enum ShutdownSignalsBridge {
    static func install(server: ParleyServer, logger: Logger, notifier: ServiceNotifier? = nil) throws(NetError) {
        try ShutdownSignals.install(on: server.group.loops[0], signals: [.interrupt, .terminate, .hangup]) { signal in
            if signal == .hangup {
                notifier?.reloading()
                server.reloadTLS()
                server.reloadApps()
                server.reloadThumbnails()
                notifier?.ready(status: "Serving (SIGHUP handled; the log says what was reloaded)")
                return
            }
            logger.info(
                "shutting down",
                [
                    ("signal", signal == .interrupt ? "SIGINT" : "SIGTERM"),
                    ("grace_seconds", "\(server.options.shutdownGraceSeconds)")
                ])
            notifier?.stopping(status: "Draining connections (up to \(server.options.shutdownGraceSeconds) s)")
            server.shutdown()
        }
    }
}
