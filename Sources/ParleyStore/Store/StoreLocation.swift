/// Which database the store uses.
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite database file (created if missing; its `-wal` and `-shm` files live next to it).
    case sqlite(path: String)
    /// A PostgreSQL database, as a `postgres://` / `postgresql://` URL or a libpq conninfo string.
    case postgres(url: String)

    /// The file name of the SQLite database inside a data directory.
    public static let sqliteFileName = "parley.sqlite"

    /// The SQLite database in `directory` (the default embedded setup).
    public static func sqlite(inDirectory directory: String) -> StoreLocation {
        let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return .sqlite(path: "\(trimmed)/\(sqliteFileName)")
    }

    /// Interprets a `--database` argument: a `postgres://` or `postgresql://` URL selects PostgreSQL,
    /// anything else is an SQLite file path; no argument means SQLite in `dataDirectory`.
    public init(databaseArgument: String?, dataDirectory: String) {
        guard let argument = databaseArgument, !argument.isEmpty else {
            self = .sqlite(inDirectory: dataDirectory)
            return
        }
        if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            self = .postgres(url: argument)
        } else {
            self = .sqlite(path: argument)
        }
    }

    /// The engine the location selects.
    public var dialect: SQLDialect {
        switch self {
        case .sqlite: return .sqlite
        case .postgres: return .postgres
        }
    }

    /// A description safe for logs: the SQLite path, or the PostgreSQL URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:\(path)"
        case .postgres(let url):
            return Self.redactingPassword(url)
        }
    }

    private static func redactingPassword(_ url: String) -> String {
        let characters = Array(url)
        guard
            let schemeEnd = (0..<max(0, characters.count - 2)).first(where: {
                characters[$0] == ":" && characters[$0 + 1] == "/" && characters[$0 + 2] == "/"
            })
        else { return url }
        let authorityStart = schemeEnd + 3
        guard let at = characters[authorityStart...].firstIndex(of: "@"),
            let colon = characters[authorityStart..<at].firstIndex(of: ":")
        else { return url }
        return String(characters[..<(colon + 1)]) + "***" + String(characters[at...])
    }
}
