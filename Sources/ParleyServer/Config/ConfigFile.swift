import ParleyWire

/// A config file read and checked against ``ConfigSchema``: JSON syntax errors and every
/// unknown or malformed member, each with its line and column.
struct ConfigFile: Sendable {
    /// The file's path as given.
    let path: String
    /// Its bytes.
    let bytes: [UInt8]
    /// The parsed document, when it is valid JSON.
    let json: JSONValue?
    /// What is wrong with it; empty when the table finds nothing.
    let problems: [ConfigProblem]

    /// Reads and checks `path`; nil when the file cannot be read.
    static func load(_ path: String) -> ConfigFile? {
        guard let bytes = ParleyServerMain.readFile(path) else { return nil }
        return ConfigFile(path: path, bytes: bytes)
    }

    /// Checks `bytes` read from `path`.
    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        do {
            let json = try JSONParser.parse(bytes)
            self.json = json
            problems = Self.locate(ConfigSchema.problems(in: json), in: bytes)
        } catch {
            json = nil
            problems = [
                ConfigProblem(
                    path: "$", message: "not valid JSON (\(error.code.rawValue))",
                    position: ConfigSourcePosition(offset: error.offset, in: bytes))
            ]
        }
    }

    /// `problem` with the line and column of its path, or of the nearest enclosing member
    /// found (a missing member is reported where its object starts).
    func located(_ problem: ConfigProblem) -> ConfigProblem {
        Self.locate([problem], in: bytes)[0]
    }

    /// The first problem as the one-line reason `parley serve` refuses to start.
    var startError: ServerStartError? {
        guard let first = problems.first else { return nil }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more; run parley check-config \(path))" : ""
        return ServerStartError(code: "config_invalid", message: "config file \(path): \(first)\(more)")
    }

    private static func locate(_ problems: [ConfigProblem], in bytes: [UInt8]) -> [ConfigProblem] {
        guard problems.contains(where: { $0.position == nil }) else { return problems }
        let offsets = JSONMemberLocator.offsets(in: bytes)
        return problems.map { problem in
            guard problem.position == nil else { return problem }
            var located = problem
            var path = Substring(problem.path)
            while located.position == nil, !path.isEmpty {
                if let offset = offsets[String(path)] {
                    located.position = ConfigSourcePosition(offset: offset, in: bytes)
                } else {
                    path = parent(of: path)
                }
            }
            return located
        }
    }

    private static func parent(of path: Substring) -> Substring {
        guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return "" }
        return path[..<cut]
    }
}

extension ParleyServerMain {
    /// The config file checked against ``ConfigSchema`` before any section is read: nil when
    /// there is none or it passes; otherwise why the server must not start.
    static func checkConfigFile(_ options: ServeOptions) -> ServerStartError? {
        guard let path = options.configPath else { return nil }
        guard let file = ConfigFile.load(path) else {
            return ServerStartError(code: "config_unreadable", message: "cannot read config file \(path)")
        }
        return file.startError
    }
}
