import ParleyChannels
import ParleyPlatform
import ParleyStore
import ParleyWire

/// Starts the server for `parley serve` and returns when it has shut down.
enum ParleyServerMain {
    static func run(_ given: ServeOptions) async -> Int32 {
        LogSettings.minimumLevel = given.logLevel
        LogSettings.format = given.logFormat
        let logger = Logger(label: "parley")
        if let refusal = checkConfigFile(given) {
            printError("parley serve: \(refusal.message)")
            return 2
        }
        var options: ServeOptions
        switch optionsWithConfigFileTLS(given) {
        case .success(let merged): options = merged
        case .failure(let error):
            printError("parley serve: \(error.message)")
            return 2
        }
        let config: ChannelsConfig?
        let configWarnings: [ConfigProblem]
        switch loadApps(options) {
        case .success(let loaded):
            config = loaded?.config
            configWarnings = loaded?.warnings ?? []
        case .failure(let error):
            printError("parley serve: \(error.message)")
            return 2
        }
        switch loadEdgeOptions(options) {
        case .success(let fromFile): options.edge = options.edge.filling(from: fromFile)
        case .failure(let error):
            printError("parley serve: \(error.message)")
            return 2
        }
        switch loadThumbnailOptions(options) {
        case .success(let fromFile): options.thumbnails = fromFile
        case .failure(let error):
            printError("parley serve: \(error.message)")
            return 2
        }
        // Every connection holds a descriptor: take all the hard limit allows before sizing the caps.
        let fileLimit = FileDescriptorLimit.raiseToHardLimit().limit
        do throws(ServerStartError) {
            try prepareDataDirectory(options.dataDirectory)
            let location = StoreLocation(databaseArgument: options.database, dataDirectory: options.dataDirectory)
            options = try resolveCluster(options, location: location).get()
            let dataLock = try lockDataDirectory(options, location)
            defer { dataLock?.release() }
            let store = try await openStore(location, postgresWriters: options.postgresWriters)
            let server: ParleyServer
            do throws(ServerStartError) {
                server = try ParleyServer(options: options, channelsConfig: config, store: store, logger: logger)
            } catch {
                await store.close()
                throw error
            }
            let status = await serve(
                server, store: store, options: options, location: location, config: config, configWarnings: configWarnings,
                fileLimit: fileLimit, logger: logger)
            await store.close()
            return status
        } catch {
            printError("parley serve: \(error.message)")
            return 1
        }
    }

    /// Serves until a signal stops the server; 1 when it could not listen.
    private static func serve(
        _ server: ParleyServer, store: SQLChatStore, options: ServeOptions, location: StoreLocation, config: ChannelsConfig?,
        configWarnings: [ConfigProblem], fileLimit: Int, logger: Logger
    ) async -> Int32 {
        do {
            // NOTIFY_SOCKET (systemd Type=notify); one this cannot use is a warning, not a refusal.
            let notifierResult = Result { () throws(ServerStartError) in try ServiceNotifier.fromEnvironment() }
            let notifier = try? notifierResult.get()
            // Caught from before the start (a SIGTERM then is no kill), acted on once listening.
            let gate = StartupSignalGate()
            installShutdown(server, logger: logger, notifier: notifier, gate: gate)
            let address = try server.start()
            gate.open(on: server.group.loops[0])
            logger.info(
                "parley listening",
                [
                    ("address", "\(options.servesTLS ? "https" : "http")://\(address)"), ("data_dir", options.dataDirectory),
                    ("database", location.description), ("writers", "\(store.database.writerCount)"),
                    ("apps", config.map { $0.apps.map(\.id).joined(separator: ",") } ?? "none"),
                    ("mode", options.dev ? "dev (app 1, key dev-key, secret dev-secret)" : "config"),
                    ("loops", "\(server.group.loops.count)"), ("backend", options.backend.rawValue),
                    ("fd_limit", "\(fileLimit)"), ("max_connections", server.maxConnections.map(String.init) ?? "none"),
                    ("version", ParleyVersion.string)
                ] + server.clusterLogFields)
            // After the start line, which scripts and tests wait for as the first line.
            logConfigWarnings(configWarnings, path: options.configPath ?? "", to: logger)
            if case .failure(let error) = notifierResult {
                logger.warning("service manager will not be told of readiness", [("error", error.message)])
            }
            for migration in store.database.appliedMigrations {
                logger.info(
                    "migration applied", [("version", "\(migration.version)"), ("name", migration.name), ("database", location.description)]
                )
            }
            notifier?.ready(status: "Serving \(options.servesTLS ? "https" : "http")://\(address)")
            await server.stopped()
            logger.info("parley stopped")
            LogWriter.shared.flush()
            return 0
        } catch {
            printError("parley serve: \(error.message)")
            return 1
        }
    }

    /// The apps this server hosts: `--config FILE`, or the development app with `--dev`.
    static func loadChannelsConfig(_ options: ServeOptions) -> Result<ChannelsConfig?, ServerStartError> {
        loadApps(options).map { $0?.config }
    }

    /// ``loadChannelsConfig(_:)`` with the warnings reading the file gave (logged after the start line).
    static func loadApps(_ options: ServeOptions) -> Result<ConfigFile.Apps?, ServerStartError> {
        if let path = options.configPath {
            guard let file = ConfigFile.load(path) else {
                return .failure(ServerStartError(code: "config_unreadable", message: "cannot read config file \(path)"))
            }
            switch file.apps() {
            case .success(let apps): return .success(apps)
            case .failure(let problem):
                return .failure(ServerStartError(code: "config_invalid", message: "config file \(path): \(problem)"))
            }
        }
        if options.dev { return .success(ConfigFile.Apps(config: ChannelsConfig.development, warnings: [])) }
        return .failure(
            ServerStartError(
                code: "no_apps",
                message: """
                    no apps configured: pass --config FILE (a JSON apps file, see README) or --dev \
                    to run the development app (id 1, key dev-key, secret dev-secret)
                    """))
    }

    /// One warning line per setting that works but should be fixed (at start and on SIGHUP).
    static func logConfigWarnings(_ warnings: [ConfigProblem], path: String, to logger: Logger) {
        for warning in warnings {
            logger.warning("config setting needs attention", [("config", path), ("setting", warning.path), ("problem", warning.message)])
        }
    }

    /// The `"http"` object of the config file (connection caps, deadlines), if any.
    static func loadEdgeOptions(_ options: ServeOptions) -> Result<EdgeOptions, ServerStartError> {
        guard let path = options.configPath, let bytes = readFile(path) else { return .success(EdgeOptions()) }
        do {
            return .success(try EdgeOptions(configFile: try JSONParser.parse(bytes)))
        } catch let error as ServerStartError {
            return .failure(ServerStartError(code: error.code, message: "config file \(path): \(error.message)"))
        } catch {
            return .failure(ServerStartError(code: "config_invalid", message: "config file \(path): \(error)"))
        }
    }

    /// The `"thumbnails"` object of the config file, or the defaults.
    static func loadThumbnailOptions(_ options: ServeOptions) -> Result<ThumbnailOptions, ServerStartError> {
        guard let path = options.configPath, let bytes = readFile(path) else { return .success(options.thumbnails) }
        do {
            return .success(try ThumbnailOptions(configFile: try JSONParser.parse(bytes)))
        } catch let error as ServerStartError {
            return .failure(ServerStartError(code: error.code, message: "config file \(path): \(error.message)"))
        } catch {
            return .failure(ServerStartError(code: "config_invalid", message: "config file \(path): \(error)"))
        }
    }

    /// Opens the chat store (migrating it).
    private static func openStore(_ location: StoreLocation, postgresWriters: Int?) async throws(ServerStartError) -> SQLChatStore {
        var configuration = StoreConfiguration(location: location)
        if let postgresWriters { configuration.postgresWriterCount = postgresWriters }
        do {
            return try await SQLChatStore.open(configuration)
        } catch {
            throw ServerStartError(code: "database", message: "cannot open the database \(location): \(error)")
        }
    }

    private static func installShutdown(_ server: ParleyServer, logger: Logger, notifier: ServiceNotifier?, gate: StartupSignalGate) {
        do {
            try ShutdownSignalsBridge.install(server: server, logger: logger, notifier: notifier, gate: gate)
        } catch {
            logger.warning("signal handlers not installed", [("error", "\(error)")])
        }
    }

    /// With an SQLite store, no other server may use the data directory (see ``DataDirectoryLock``);
    /// PostgreSQL servers may share one for attachments.
    private static func lockDataDirectory(
        _ options: ServeOptions, _ location: StoreLocation
    ) throws(ServerStartError)
        -> DataDirectoryLock?
    {
        guard case .sqlite = location else { return nil }
        return try DataDirectoryLock.acquire(directory: options.dataDirectory)
    }

    private static func prepareDataDirectory(_ path: String) throws(ServerStartError) {
        if mkdir(path, 0o750) != 0 && errno != EEXIST {
            throw ServerStartError(code: "data_dir", message: "cannot create data directory \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }
}
