import ParleyChannels
import ParleyChat

extension ParleyServer {
    /// Reads the config file's apps again (SIGHUP) and serves them from now on, without
    /// dropping a connection: new apps accept connections and requests, removed ones refuse
    /// new ones, changed secrets and switches apply to the next request or message. A file
    /// with any problem is refused whole and the apps in service stay. Only `apps` and
    /// `thumbnails` (``reloadThumbnails()``) are reloaded; other settings need a restart.
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

    /// Reads the config file's `thumbnails` object again (SIGHUP): later uploads get thumbnails
    /// made with it. A file with any problem is refused whole and the settings in service stay.
    public func reloadThumbnails() {
        guard let path = options.configPath, let chat else { return }
        let settings: ThumbnailSettings
        switch Self.readThumbnails(path) {
        case .success(let read): settings = read
        case .failure(let reason):
            logger.error("thumbnails reload refused; the settings in service stay", [("config", path), ("error", reason.description)])
            return
        }
        do throws(ChatError) {
            try chat.reloadThumbnails(settings)
        } catch {
            logger.error("thumbnails reload refused; the settings in service stay", [("config", path), ("error", error.message)])
            return
        }
        logger.info(
            "thumbnails reloaded",
            [
                ("config", path), ("enabled", "\(settings.enabled)"), ("max_side", "\(settings.longestSide)"),
                ("max_source_pixels", "\(settings.maxPixels)"), ("jpeg_quality", "\(settings.quality)")
            ])
    }

    /// The `thumbnails` object of the file at `path`, checked as at start, or the first problem.
    private static func readThumbnails(_ path: String) -> Result<ThumbnailSettings, ConfigProblem> {
        guard let file = ConfigFile.load(path) else { return .failure(ConfigProblem(path: "$", message: "cannot read the file")) }
        if let problem = file.problems.first { return .failure(problem) }
        do throws(ServerStartError) {
            return .success(try ThumbnailOptions(configFile: file.json ?? .null).settings)
        } catch {
            return .failure(ConfigProblem(path: "$.thumbnails", message: error.message))
        }
    }

    /// The apps of the file at `path`, checked and read as at start (secret files and
    /// variables read again), or the first problem.
    private static func readApps(_ path: String) -> Result<ConfigFile.Apps, ConfigProblem> {
        guard let file = ConfigFile.load(path) else { return .failure(ConfigProblem(path: "$", message: "cannot read the file")) }
        if let problem = file.problems.first { return .failure(problem) }
        return file.apps()
    }
}
