import ParleyNet

/// Turns SIGINT/SIGTERM into a graceful shutdown of the server, and SIGHUP into a reload of
/// its TLS certificate and of the apps and thumbnail settings in its config file (connections
/// stay up); a service
/// manager listening on `NOTIFY_SOCKET` hears of both.
enum ShutdownSignalsBridge {
    /// Installs the handlers; what a signal asks waits in `gate` until the server listens.
    static func install(
        server: ParleyServer, logger: Logger, notifier: ServiceNotifier? = nil, gate: StartupSignalGate
    ) throws(NetError) {
        try ShutdownSignals.install(on: server.group.loops[0], signals: [.interrupt, .terminate, .hangup]) { signal in
            gate.run { handle(signal, server: server, logger: logger, notifier: notifier) }
        }
    }

    private static func handle(_ signal: ShutdownSignal, server: ParleyServer, logger: Logger, notifier: ServiceNotifier?) {
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
