import ParleyChannels

extension ParleyServer {
    /// Reads the config file's apps again (SIGHUP) and serves them from now on, without
    /// dropping a connection: new apps accept connections and requests, removed ones refuse
    /// new ones, changed secrets and switches apply to the next request or message. A file
    /// with any problem is refused whole and the apps in service stay. Only `apps` is
    /// reloaded; other settings need a restart.
    public func reloadApps() {
        guard let path = options.configPath, let channels else {
            logger.info("SIGHUP: no apps file to reload (running without --config)")
            return
        }
        let config: ChannelsConfig
        switch Self.readApps(path) {
        case .success(let read):
            config = read.config
            ParleyServerMain.logConfigWarnings(read.warnings, path: path, to: logger)
        case .failure(let reason):
            logger.error("apps reload refused; the apps in service stay", [("config", path), ("error", reason.description)])
            return
        }
        let changes = channels.apps.replace(with: config)
        chat?.appsReloaded()
        logger.info(
            "apps reloaded",
            [
                ("config", path), ("apps", config.apps.map(\.id).joined(separator: ",")),
                ("added", changes.added.joined(separator: ",")),
                ("removed", changes.removed.joined(separator: ",")),
                ("changed", changes.changed.joined(separator: ","))
            ])
    }

    /// The apps of the file at `path`, checked and read as at start (secret files and
    /// variables read again), or the first problem.
    private static func readApps(_ path: String) -> Result<ConfigFile.Apps, ConfigProblem> {
        guard let file = ConfigFile.load(path) else { return .failure(ConfigProblem(path: "$", message: "cannot read the file")) }
        if let problem = file.problems.first { return .failure(problem) }
        return file.apps()
    }
}
