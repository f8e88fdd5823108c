import ParleyPlatform
import ParleyStore
import ParleySystem

/// `parley backup DEST`: a consistent copy of a server's embedded store, taken while it
/// runs: the SQLite database (online backup: the database as of one commit) and then the
/// attachment files. An attachment's file is written before its row commits, so every
/// attachment in the copied database has its file by the time the files are copied. DEST
/// is a new directory that can be used as `--data-dir` as it is.
enum BackupCommand {
    static let helpText = """
        USAGE: parley backup DEST [--data-dir PATH]

        Copies a Parley data directory with the embedded SQLite database into the new
        directory DEST while the server keeps running: first the database (SQLite's online
        backup, a consistent snapshot), then the attachment files. Start a server with
        --data-dir DEST to restore. With PostgreSQL use pg_dump and copy the attachments
        (see docs/operations.md).

        --data-dir PATH   The server's data directory (default ./parley-data) [PARLEY_DATA_DIR]
        """

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(helpText)
            return 0
        }
        var dataDirectory = environment["PARLEY_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "./parley-data"
        var destination: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--data-dir", let value = rest.popFirst() {
                dataDirectory = value
            } else if argument.hasPrefix("--data-dir=") {
                dataDirectory = String(argument.dropFirst("--data-dir=".count))
            } else if destination == nil, !argument.hasPrefix("-") {
                destination = argument
            } else {
                printError("parley backup: unexpected argument '\(argument)' (see parley backup --help)")
                return 2
            }
        }
        guard let destination else {
            printError("parley backup: give the directory to create (see parley backup --help)")
            return 2
        }
        do {
            let copied = try backup(dataDirectory: dataDirectory, to: destination)
            print("backed up \(dataDirectory) to \(destination): database and \(copied) attachment file(s)")
            return 0
        } catch {
            printError("parley backup: \(error.message)")
            return 1
        }
    }

    /// Copies the database, then the attachments; returns how many files were copied.
    static func backup(dataDirectory: String, to destination: String) throws(ServerStartError) -> Int {
        let database = "\(dataDirectory)/\(StoreLocation.sqliteFileName)"
        guard access(database, F_OK) == 0 else {
            throw ServerStartError(
                code: "backup", message: "no database at \(database) (is this a data directory with the embedded store?)")
        }
        guard mkdir(destination, 0o750) == 0 else {
            throw ServerStartError(
                code: "backup", message: "cannot create \(destination): \(String(cString: strerror(errno))) (it must not exist yet)")
        }
        do {
            try SQLiteBackup.copy(from: database, to: "\(destination)/\(StoreLocation.sqliteFileName)")
        } catch {
            throw ServerStartError(code: "backup", message: "\(error)")
        }
        return try copyTree("\(dataDirectory)/attachments", to: "\(destination)/attachments")
    }

    /// Copies a directory tree of regular files (nothing when `source` does not exist).
    private static func copyTree(_ source: String, to destination: String) throws(ServerStartError) -> Int {
        guard let directory = opendir(source) else { return 0 }
        defer { closedir(directory) }
        guard mkdir(destination, 0o750) == 0 || errno == EEXIST else {
            throw ServerStartError(code: "backup", message: "cannot create \(destination): \(String(cString: strerror(errno)))")
        }
        var copied = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // A `.partial` file is an upload still being written; its row does not exist yet.
            if name == "." || name == ".." || name.hasSuffix(".partial") { continue }
            let from = "\(source)/\(name)", to = "\(destination)/\(name)"
            var info = stat()
            guard lstat(from, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                copied += try copyTree(from, to: to)
            } else if info.st_mode & S_IFMT == S_IFREG {
                try copyFile(from, to: to)
                copied += 1
            }
        }
        return copied
    }

    private static func copyFile(_ source: String, to destination: String) throws(ServerStartError) {
        guard let bytes = ParleyServerMain.readFile(source) else {
            throw ServerStartError(code: "backup", message: "cannot read \(source)")
        }
        do {
            try FileDescriptor.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions: 0o640)
                .closeAfter { file throws(SystemCallError) in
                    try file.writeAll(bytes)
                    try file.sync()
                }
        } catch {
            switch error.call {
            case "open": throw ServerStartError(code: "backup", message: "cannot create \(destination): \(error.reason)")
            case "write": throw ServerStartError(code: "backup", message: "cannot write \(destination): \(error.reason)")
            default: throw ServerStartError(code: "backup", message: "cannot sync \(destination)")
            }
        }
    }
}
