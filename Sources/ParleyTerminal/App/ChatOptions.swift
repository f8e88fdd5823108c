/// What `parley chat` is told on its command line.
public struct ChatOptions: Sendable, Equatable {
    /// How the client gets its token.
    public enum SignIn: Sendable, Equatable {
        /// Development mode: the server issues the token for a name.
        case development(name: String)
        /// A token given outright.
        case token(String)
        /// The app's backend issues it (`POST url {"user_id"}` → `{"token"}`).
        case tokenURL(String, userID: String)
    }

    /// The server's base URL.
    public var serverURL = "http://127.0.0.1:6001"
    /// The app key (the realtime path).
    public var appKey = "dev-key"
    /// The app id, sent as `X-Parley-App`, if given.
    public var appID: String?
    /// How to sign in.
    public var signIn: SignIn?
    /// The SQLite file of the outbox and cache; nil keeps them in memory.
    public var storePath: String?
    /// The composer's character limit.
    public var characterLimit = 256
    /// Whether `--help` was asked for.
    public var showHelp = false

    /// Creates the defaults.
    public init() {}

    /// The help text.
    public static let helpText = """
        USAGE: parley chat --name NAME --dev [options]
               parley chat --token TOKEN [options]
               parley chat --name USER_ID --token-url URL [options]

        A full-screen terminal chat client.

        SIGN-IN (one of):
          --dev                 Ask the server for a token by name (parley serve --dev)
          --token TOKEN         Use this user token
          --token-url URL       Ask the app's backend: POST URL {"user_id": NAME} -> {"token"}

        OPTIONS:
          --name NAME           Your name (--dev) or user id (--token-url)
          --server URL          Server base URL (default http://127.0.0.1:6001)
          --app-key KEY         App key (default dev-key)
          --app-id ID           App id, when the server hosts several apps
          --store PATH          Keep the outbox and cache in this SQLite file
          --limit N             Composer character limit (default 256)
          -h, --help            Show this help

        In the client: /help lists the commands; Esc goes back to the rooms; Ctrl-C or /quit leaves.
        """

    /// Parses the arguments after `chat`.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(ChatOptionsError) -> ChatOptions {
        var options = ChatOptions()
        var name: String?
        var dev = false
        var token: String?
        var tokenURL: String?
        if let server = environment["PARLEY_SERVER"] { options.serverURL = server }
        var index = 0
        func value(_ flag: String) throws(ChatOptionsError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw ChatOptionsError(code: "missing_value", message: "\(flag) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": options.showHelp = true
            case "--dev": dev = true
            case "--name": name = try value(argument)
            case "--token": token = try value(argument)
            case "--token-url": tokenURL = try value(argument)
            case "--server": options.serverURL = try value(argument)
            case "--app-key": options.appKey = try value(argument)
            case "--app-id": options.appID = try value(argument)
            case "--store": options.storePath = try value(argument)
            case "--limit":
                let text = try value(argument)
                guard let limit = Int(text), limit > 0 else {
                    throw ChatOptionsError(code: "invalid_value", message: "--limit needs a positive number")
                }
                options.characterLimit = limit
            default:
                throw ChatOptionsError(code: "unknown_flag", message: "unknown option \(argument) (see parley chat --help)")
            }
            index += 1
        }
        if options.showHelp { return options }
        guard options.serverURL.hasPrefix("http://") else {
            throw ChatOptionsError(code: "invalid_value", message: "--server must be an http:// URL")
        }
        let chosen = [dev, token != nil, tokenURL != nil].filter { $0 }.count
        guard chosen == 1 else {
            throw ChatOptionsError(
                code: "sign_in", message: "choose one way to sign in: --dev, --token or --token-url (see parley chat --help)")
        }
        if dev || tokenURL != nil {
            guard let name, !name.isEmpty else {
                throw ChatOptionsError(code: "missing_name", message: "--name is required with --dev and --token-url")
            }
            options.signIn = dev ? .development(name: name) : .tokenURL(tokenURL!, userID: name)
        } else if let token {
            options.signIn = .token(token)
        }
        return options
    }
}
