/// How the token backend is configured: where it listens, which Parley app it serves.
struct BackendOptions: Sendable {
    var host = "127.0.0.1"
    var port = 7000
    var parleyURL = "http://127.0.0.1:6001"
    var appID = "1"
    var appKey = "dev-key"
    var appSecret = "dev-secret"
    var tokenLifetime: Int64 = 3600
    /// A web origin whose pages may ask for tokens (CORS), such as Parley Web's own server.
    var allowedOrigin: String?

    static let helpText = """
        USAGE: TokenBackend [options]

        The example app backend: creates chat users by name and issues their tokens.

          POST /users {"name", "id"?}  -> the user (created in Parley with the app key/secret)
          POST /token {"user_id"}      -> {"token", "user_id", "expires_in"} (HTTPTokenProvider's format)

        OPTIONS (environment variable in brackets):
          --host HOST          Address to listen on (127.0.0.1)
          --port PORT          Port, 0 for any free one (7000)
          --parley URL         Parley's base URL [PARLEY_URL] (http://127.0.0.1:6001)
          --app-id ID          The app's id [PARLEY_APP_ID] (1)
          --app-key KEY        The app's key [PARLEY_APP_KEY] (dev-key)
          --app-secret SECRET  The app's secret [PARLEY_APP_SECRET] (dev-secret)
          --lifetime SECONDS   Token lifetime (3600)
          --allow-origin URL   Let pages of this origin ask for tokens (CORS), e.g. the
                               Parley server serving its web client: http://127.0.0.1:6001
        """

    /// Parses flags over environment over defaults; nil asks for the help text.
    static func parse(_ arguments: [String], environment: [String: String]) throws(BackendError) -> BackendOptions? {
        var options = BackendOptions()
        if let value = environment["PARLEY_URL"] { options.parleyURL = value }
        if let value = environment["PARLEY_APP_ID"] { options.appID = value }
        if let value = environment["PARLEY_APP_KEY"] { options.appKey = value }
        if let value = environment["PARLEY_APP_SECRET"] { options.appSecret = value }
        var index = 0
        func value() throws(BackendError) -> String {
            index += 1
            guard index < arguments.count else {
                throw BackendError(status: 2, code: "missing_value", message: "\(arguments[index - 1]) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "-h", "--help": return nil
            case "--host": options.host = try value()
            case "--port":
                guard let port = Int(try value()), (0...65535).contains(port) else {
                    throw BackendError(status: 2, code: "invalid_value", message: "--port needs a port number")
                }
                options.port = port
            case "--parley": options.parleyURL = try value()
            case "--app-id": options.appID = try value()
            case "--app-key": options.appKey = try value()
            case "--app-secret": options.appSecret = try value()
            case "--allow-origin": options.allowedOrigin = try value()
            case "--lifetime":
                guard let seconds = Int64(try value()), seconds > 0 else {
                    throw BackendError(status: 2, code: "invalid_value", message: "--lifetime needs seconds")
                }
                options.tokenLifetime = seconds
            default:
                throw BackendError(status: 2, code: "unknown_flag", message: "unknown option \(arguments[index])")
            }
            index += 1
        }
        if options.parleyURL.hasSuffix("/") { options.parleyURL.removeLast() }
        return options
    }
}
