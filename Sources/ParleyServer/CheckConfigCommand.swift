import ParleyChannels
import ParleyWire

/// `parley check-config FILE`: checks a config file the way `parley serve --config FILE`
/// would read it, without starting anything. Exit 0 when valid, 1 with one line per problem,
/// 2 for a bad command line. `--print-reference` prints `docs/configuration.md`.
enum CheckConfigCommand {
    static let helpText = """
        USAGE: parley check-config FILE
               parley check-config --print-reference

        Checks a JSON config file without starting a server: JSON syntax, unknown settings
        (with the nearest known name), types and ranges, the apps (secret files and
        variables are read, as the server would read them), the "http" and "tls" sections
        (the certificate and key are loaded). Prints "FILE: ok" and exits 0 when it
        is valid; otherwise prints one line per problem with its line and column and exits 1.

        --print-reference   Print the reference of every setting (docs/configuration.md)
        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--print-reference"] {
            print(ConfigSchema.referenceMarkdown, terminator: "")
            return 0
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(helpText)
            return 0
        }
        guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
            printError("parley check-config: give exactly one FILE (see parley check-config --help)")
            return 2
        }
        guard let file = ConfigFile.load(path) else {
            printError("\(path): cannot read the file")
            return 1
        }
        let problems = file.problems.isEmpty ? readerProblems(file) : file.problems
        for problem in problems { printError("\(path): \(problem)") }
        guard problems.isEmpty, case .success(let read) = file.apps() else { return 1 }
        for warning in read.warnings { printError("\(path): warning: \(warning)") }
        let apps = read.config.apps.map(\.id).joined(separator: ", ")
        print("\(path): ok (apps: \(apps))")
        return 0
    }

    /// What the section readers themselves refuse (rules beyond the table: an app id of
    /// digits, duplicate keys, a webhook URL, a certificate that does not load).
    private static func readerProblems(_ file: ConfigFile) -> [ConfigProblem] {
        var options = ServeOptions()
        options.configPath = file.path
        var problems: [ConfigProblem] = []
        if case .failure(let problem) = file.apps() { problems.append(problem) }
        if case .failure(let error) = ParleyServerMain.loadEdgeOptions(options) {
            problems.append(ConfigProblem(path: "$.http", message: error.message))
        }
        switch ParleyServerMain.optionsWithConfigFileTLS(options) {
        case .failure(let error):
            problems.append(ConfigProblem(path: "$.tls", message: error.message))
        case .success(let withTLS):
            do {
                _ = try ParleyServer.loadTLS(withTLS)
            } catch {
                problems.append(ConfigProblem(path: "$.tls", message: error.message))
            }
        }
        return problems
    }
}
