import ParleyPlatform

/// The `parley` command line: picks the subcommand and runs it.
public enum ParleyCommand {
    /// Top-level help, listing the subcommands.
    public static let helpText = """
        parley \(ParleyVersion.string) — a self-hosted realtime chat and collaboration server

        USAGE: parley <command> [options]

        COMMANDS:
          serve        Run the server (see parley serve --help)
          chat         Full-screen terminal chat client (see parley chat --help)
          token        Mint a user token for an app (see parley token --help)
          check-config Check a JSON config file without starting (see parley check-config --help)
          backup       Copy a running server's embedded database and attachments (see parley backup --help)
          version      Print the version

        OPTIONS:
          -h, --help   Show this help
          --version    Print the version
        """

    /// Runs the command line and returns the process exit status (`serve` returns when the
    /// server has shut down).
    public static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
        guard let command = arguments.first else {
            print(helpText)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            print(helpText)
            return 0
        case "--version", "version":
            print("parley \(ParleyVersion.string)")
            return 0
        case "serve":
            return await serve(rest, environment: environment)
        case "token":
            return TokenCommand.run(rest, environment: environment)
        case "check-config":
            return CheckConfigCommand.run(rest)
        case "backup":
            return BackupCommand.run(rest, environment: environment)
        default:
            printError("parley: unknown command '\(command)' (see parley --help)")
            return 2
        }
    }

    static func serve(_ arguments: [String], environment: [String: String]) async -> Int32 {
        let options: ServeOptions
        do {
            options = try ServeOptions.parse(arguments, environment: environment)
        } catch {
            printError("parley serve: \(error.message)")
            return 2
        }
        if options.showHelp {
            print(ServeOptions.helpText)
            return 0
        }
        return await ParleyServerMain.run(options)
    }
}

/// Writes a line to standard error (after the log lines queued before it).
func printError(_ line: String) {
    LogWriter.shared.flush()
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
