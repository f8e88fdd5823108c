import ParleyPlatform
import ParleySystem
import ParleyWire

/// Puts app secrets kept outside the config file into it: `"secret_file"` (a file's contents)
/// and `"secret_env"` (an environment variable) in place of `"secret"`, and
/// `{"file": PATH}` / `{"env": NAME}` entries in `"secrets"` in place of strings.
///
/// Runs over the parsed file before the apps reader sees it, at start, on SIGHUP and in
/// `parley check-config`, so a file that went missing or a variable that is empty is refused
/// there with the JSON path that names it. Files: regular, at most 64 KiB of UTF-8, trailing
/// line ends dropped; refused when any user may write them (anyone could choose the secret),
/// a warning when any user may read them (group-readable is fine: `root:parley 0640`).
struct AppSecretSources {
    /// The config with every secret in place, and warnings (loose file permissions).
    struct Resolved {
        var json: JSONValue
        var warnings: [ConfigProblem]
    }

    /// Looks up an environment variable of the server process.
    var environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }

    /// Largest secret file read, in bytes: a secret is a line of text, not a document.
    static let maximumFileBytes = 64 * 1024

    /// `root` with the secrets of every app read from where it names them; the first secret
    /// that cannot be read is the problem returned.
    func resolve(_ root: JSONValue) -> Result<Resolved, ConfigProblem> {
        guard var object = root.objectValue, let apps = object["apps"]?.arrayValue else {
            return .success(Resolved(json: root, warnings: []))
        }
        var warnings: [ConfigProblem] = []
        var resolvedApps: [JSONValue] = []
        for (i, app) in apps.enumerated() {
            switch resolveApp(app, path: "$.apps[\(i)]", warnings: &warnings) {
            case .success(let resolved): resolvedApps.append(resolved)
            case .failure(let problem): return .failure(problem)
            }
        }
        object["apps"] = .array(resolvedApps)
        return .success(Resolved(json: .object(object), warnings: warnings))
    }

    private func resolveApp(_ app: JSONValue, path: String, warnings: inout [ConfigProblem]) -> Result<JSONValue, ConfigProblem> {
        guard var object = app.objectValue else { return .success(app) }
        let given = ["secret", "secret_file", "secret_env"].filter { (object[$0] ?? .null) != .null }
        if given.count > 1 {
            return .failure(ConfigProblem(path: "\(path).\(given[1])", message: "give only one of secret, secret_file and secret_env"))
        }
        if let source = given.first, source != "secret" {
            switch secret(
                from: source == "secret_file" ? .file : .environment, object[source]!, path: "\(path).\(source)", warnings: &warnings)
            {
            case .success(let secret): object["secret"] = .string(secret)
            case .failure(let problem): return .failure(problem)
            }
            object[source] = nil
        }
        if let list = object["secrets"]?.arrayValue {
            var secrets: [JSONValue] = []
            for (i, item) in list.enumerated() {
                switch resolveListed(item, path: "\(path).secrets[\(i)]", warnings: &warnings) {
                case .success(let secret): secrets.append(secret)
                case .failure(let problem): return .failure(problem)
                }
            }
            object["secrets"] = .array(secrets)
        }
        return .success(.object(object))
    }

    /// One entry of `secrets`: a string stays; `{"file": PATH}` or `{"env": NAME}` is read.
    private func resolveListed(_ item: JSONValue, path: String, warnings: inout [ConfigProblem]) -> Result<JSONValue, ConfigProblem> {
        guard let object = item.objectValue else { return .success(item) }
        let given = ["file", "env"].filter { (object[$0] ?? .null) != .null }
        guard given.count == 1, let source = given.first else {
            return .failure(ConfigProblem(path: path, message: "must have exactly one of file and env"))
        }
        return secret(from: source == "file" ? .file : .environment, object[source]!, path: "\(path).\(source)", warnings: &warnings)
            .map { .string($0) }
    }

    private enum Origin { case file, environment }

    private func secret(
        from origin: Origin, _ value: JSONValue, path: String, warnings: inout [ConfigProblem]
    ) -> Result<String, ConfigProblem> {
        guard let name = value.stringValue, !name.isEmpty else {
            return .failure(ConfigProblem(path: path, message: origin == .file ? "must be a file path" : "must be a variable name"))
        }
        switch origin {
        case .environment:
            guard let secret = environment(name) else {
                return .failure(ConfigProblem(path: path, message: "environment variable \(name) is not set"))
            }
            guard !secret.isEmpty else { return .failure(ConfigProblem(path: path, message: "environment variable \(name) is empty")) }
            return .success(secret)
        case .file:
            return Self.readSecretFile(name).mapError { ConfigProblem(path: path, message: $0.message) }.map { file in
                if file.readableByEveryone {
                    warnings.append(ConfigProblem(path: path, message: "secret file \(name) is readable by every user; chmod o-r it"))
                }
                return file.secret
            }
        }
    }
}

extension AppSecretSources {
    /// A secret file's text and whether its permission bits let every user read it.
    struct SecretFile {
        var secret: String
        var readableByEveryone: Bool
    }

    /// Why a secret file was refused.
    struct FileRefusal: Error {
        var message: String
    }

    /// Reads the secret file at `path` (see the type's rules).
    static func readSecretFile(_ path: String) -> Result<SecretFile, FileRefusal> {
        // Non-blocking, so a FIFO put where the file should be is refused rather than waited on.
        do {
            return try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK).closeAfter { file in readSecretFile(file, path) }
        } catch {
            return .failure(FileRefusal(message: "cannot read secret file \(path): \(error.reason)"))
        }
    }

    private static func readSecretFile(_ file: borrowing FileDescriptor, _ path: String) -> Result<SecretFile, FileRefusal> {
        guard let status = try? file.status(), status.st_mode & S_IFMT == S_IFREG else {
            return .failure(FileRefusal(message: "secret file \(path) is not a regular file"))
        }
        guard status.st_mode & S_IWOTH == 0 else {
            return .failure(FileRefusal(message: "secret file \(path) is writable by every user; chmod o-w it"))
        }
        guard status.st_size <= maximumFileBytes else {
            return .failure(FileRefusal(message: "secret file \(path) is larger than \(maximumFileBytes) bytes"))
        }
        let bytes: [UInt8]
        do {
            bytes = try file.read(upTo: maximumFileBytes + 1)
        } catch {
            return .failure(FileRefusal(message: "cannot read secret file \(path): \(error.reason)"))
        }
        let count = bytes.count
        guard count <= maximumFileBytes else {
            return .failure(FileRefusal(message: "secret file \(path) is larger than \(maximumFileBytes) bytes"))
        }
        var text = bytes[..<count]
        while let last = text.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { text = text.dropLast() }
        guard !text.isEmpty else { return .failure(FileRefusal(message: "secret file \(path) is empty")) }
        guard let secret = String(validating: text, as: UTF8.self) else {
            return .failure(FileRefusal(message: "secret file \(path) is not UTF-8 text"))
        }
        return .success(SecretFile(secret: secret, readableByEveryone: status.st_mode & S_IROTH != 0))
    }
}
