import ParleyNet

/// Turns SIGINT/SIGTERM into a graceful shutdown of the server.
enum ShutdownSignalsBridge {
    static func install(server: ParleyServer, logger: Logger) throws(NetError) {
        try ShutdownSignals.install(on: server.group.loops[0]) { signal in
            logger.info("shutting down", [("signal", signal == .interrupt ? "SIGINT" : "SIGTERM"),
                                          ("grace_seconds", "\(server.options.shutdownGraceSeconds)")])
            server.shutdown()
        }
    }
}
