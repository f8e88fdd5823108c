import ParleyChannels
import ParleyWire

extension ConfigFile {
    /// The apps of a config file with their secrets read, and what deserves a warning.
    struct Apps {
        var config: ChannelsConfig
        /// Settings that work but should be fixed (a secret file every user may read).
        var warnings: [ConfigProblem]
    }

    /// The apps as `parley serve` reads them (start and SIGHUP alike): secrets named by
    /// `secret_file`/`secret_env` read first, then the apps reader's own rules. The first
    /// problem, located in the file, when there is one.
    func apps(secrets: AppSecretSources = AppSecretSources()) -> Result<Apps, ConfigProblem> {
        guard let json else {
            return .failure(problems.first ?? ConfigProblem(path: "$", message: "not valid JSON"))
        }
        switch secrets.resolve(json) {
        case .failure(let problem):
            return .failure(located(problem))
        case .success(let resolved):
            do throws(ChannelsConfigError) {
                return .success(Apps(config: try ChannelsConfig(json: resolved.json), warnings: resolved.warnings.map(located)))
            } catch {
                return .failure(located(ConfigProblem(path: error.path, message: error.message)))
            }
        }
    }
}
