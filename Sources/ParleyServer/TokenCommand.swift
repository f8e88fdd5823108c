import ParleyChannels
import ParleyChat
import ParleyPlatform

/// `parley token`: mints a user token (JWT HS256 with the app secret) as an app backend would.
enum TokenCommand {
    static let helpText = """
        USAGE: parley token --app ID --user ID [--ttl SECONDS] [--config FILE | --dev]

        Prints a user token for the chat API and Parley's channel auth: a JWT signed HS256 with
        the app's secret, sub = the user id, aud = the app id, valid for --ttl seconds (default 3600).
        The apps come from --config FILE (or PARLEY_CONFIG), or the development app with --dev.

        OPTIONS:
          --app ID              The app id (default: the only app, if there is one)
          --user ID             The user id the token speaks for (required)
          --ttl SECONDS         Lifetime in seconds, 1...31536000 (default 3600)
          --config FILE         JSON apps file  [PARLEY_CONFIG]
          --dev                 Use the development app (id 1, secret dev-secret)  [PARLEY_DEV]
          -h, --help            Show this help
        """

    /// What the command line asked for.
    struct Request: Equatable {
        var app: String?
        var user: String?
        var ttl: Int64 = 3600
        var serve = ServeOptions()
        var showHelp = false
    }

    /// Runs `parley token …` and returns the exit status.
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let request: Request
        do {
            request = try parse(arguments, environment: environment)
        } catch {
            printError("parley token: \(error.message)")
            return 2
        }
        if request.showHelp {
            print(helpText)
            return 0
        }
        switch mint(request, now: Int64(time(nil))) {
        case .success(let token):
            print(token)
            return 0
        case .failure(let error):
            printError("parley token: \(error.message)")
            return 2
        }
    }

    /// Parses the arguments (without the leading `token`) over the environment.
    static func parse(_ arguments: [String], environment: [String: String]) throws(ServeOptionsError) -> Request {
        var request = Request()
        if let config = environment["PARLEY_CONFIG"], !config.isEmpty { request.serve.configPath = config }
        if let dev = environment["PARLEY_DEV"], ["1", "true", "yes", "on"].contains(dev.lowercased()) { request.serve.dev = true }
        var rest = arguments[...]
        func value(_ flag: String) throws(ServeOptionsError) -> String {
            guard let value = rest.popFirst() else {
                throw ServeOptionsError(code: "missing_value", message: "\(flag) needs a value")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": request.showHelp = true
            case "--app": request.app = try value(argument)
            case "--user": request.user = try value(argument)
            case "--ttl":
                let text = try value(argument)
                guard let ttl = Int64(text), (1...31_536_000).contains(ttl) else {
                    throw ServeOptionsError(
                        code: "invalid_value", message: "--ttl must be a whole number of seconds in 1...31536000, not '\(text)'")
                }
                request.ttl = ttl
            case "--config": request.serve.configPath = try value(argument)
            case "--dev": request.serve.dev = true
            default:
                throw ServeOptionsError(code: "unknown_flag", message: "unknown option '\(argument)' (see parley token --help)")
            }
        }
        if !request.showHelp && (request.user ?? "").isEmpty {
            throw ServeOptionsError(code: "missing_value", message: "--user is required")
        }
        return request
    }

    /// The token for a parsed request at `now` (seconds since the epoch).
    static func mint(_ request: Request, now: Int64) -> Result<String, ServerStartError> {
        let config: ChannelsConfig?
        switch ParleyServerMain.loadChannelsConfig(request.serve) {
        case .success(let loaded): config = loaded
        case .failure(let error): return .failure(error)
        }
        let apps = config?.apps ?? []
        let app: AppConfig
        if let id = request.app {
            guard let found = apps.first(where: { $0.id == id }) else {
                return .failure(
                    ServerStartError(code: "unknown_app", message: "no app with id \(id) (apps: \(apps.map(\.id).joined(separator: ", ")))")
                )
            }
            app = found
        } else {
            guard apps.count == 1 else {
                return .failure(ServerStartError(code: "app_required", message: "--app is required when there are \(apps.count) apps"))
            }
            app = apps[0]
        }
        let minter = TokenMinter(appID: app.id, secret: app.secret)
        return .success(minter.mint(userID: request.user ?? "", now: now, lifetime: request.ttl))
    }
}
