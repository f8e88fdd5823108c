import ParleyKit
import ParleyPlatform

/// `parley chat`: parses the options, signs in, then runs the full-screen client.
public enum ChatCommandLine {
    /// Runs `parley chat` with the arguments after `chat`; returns the exit status. On the
    /// main actor: the full-screen session then owns the main thread, as a terminal program's
    /// input loop should, and the models' work runs elsewhere.
    @MainActor
    public static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
        let options: ChatOptions
        do {
            options = try ChatOptions.parse(arguments, environment: environment)
        } catch {
            printError("parley chat: \(error.message)")
            return 2
        }
        if options.showHelp {
            print(ChatOptions.helpText)
            return 0
        }
        let terminal = RawTerminal()
        guard terminal.isTerminal else {
            printError("parley chat: standard input and output must be a terminal")
            return 2
        }
        let client: ParleyClient
        do {
            client = try makeClient(options)
        } catch {
            printError("parley chat: \(error.message)")
            return 1
        }
        // Sign in before taking over the screen, so a wrong URL or name reads as a plain error.
        let user: ChatUser
        do throws(ParleyError) {
            user = try await client.me()
        } catch {
            printError("parley chat: cannot sign in at \(options.serverURL): \(error.message)")
            return 1
        }
        let controller = ChatController(
            client: client, userName: user.name, size: terminal.size(),
            options: .init(characterLimit: options.characterLimit, utcOffsetSeconds: localUTCOffset()))
        do {
            return try ChatTerminalSession(terminal: terminal).run(controller)
        } catch {
            printError("parley chat: terminal: \(error)")
            return 1
        }
    }

    /// The client for the options' server and sign-in.
    public static func makeClient(_ options: ChatOptions) throws(ParleyError) -> ParleyClient {
        let configuration = ParleyConfiguration(
            serverURL: options.serverURL, appKey: options.appKey, appID: options.appID,
            storePath: options.storePath)
        let tokens: any TokenProvider
        switch options.signIn {
        case .development(let name)?: tokens = DevTokenProvider(serverURL: options.serverURL, name: name, appID: options.appID)
        case .token(let token)?: tokens = StaticTokenProvider(token)
        case .tokenURL(let url, let userID)?: tokens = HTTPTokenProvider(url: url, userID: userID)
        case nil: throw ParleyError(.invalidArgument, "no sign-in method")
        }
        return try ParleyClient(configuration: configuration, tokenProvider: tokens)
    }

    /// This machine's offset from UTC now, in seconds (for message times).
    static func localUTCOffset() -> Int {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return 0 }
        return Int(local.tm_gmtoff)
    }

    static func printError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
