/// Settings of the raw mode: the same message rows written straight into a database.
struct RawOptions {
    /// The database: an SQLite file path or a `postgres://`/`postgresql://` URL.
    var database = ""
    /// Rows to insert in the measured run (after a warm-up of one transaction).
    var rows = 200_000
    /// Rows per transaction (one durable COMMIT each).
    var transactionRows = 10_000
    /// Rows per INSERT statement; each value is measured in turn.
    var statementRows: [Int] = [1]
    /// Rooms the rows are spread over (as the senders are).
    var rooms = 100
    /// Senders the rows are attributed to.
    var senders = 1_000
    /// Characters of text in each message.
    var textBytes = 64
    /// A label for the RESULT line.
    var label = "raw"

    static let usage = """
        usage: ParleyChatBench raw --database PATH|postgres://... [--rows 200000] [--txn-rows 10000]
                 [--statement-rows 1,100] [--rooms 100] [--senders 1000] [--text-bytes 64] [--label NAME]
        """

    /// Whether the database is PostgreSQL (otherwise an SQLite file).
    var isPostgres: Bool { database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") }

    init(_ arguments: [String]) throws(BenchError) {
        var reader = ArgumentReader(arguments)
        while let flag = reader.nextFlag() {
            switch flag {
            case "--database": database = try reader.string(for: flag)
            case "--rows": rows = try reader.integer(for: flag, in: 1...100_000_000)
            case "--txn-rows": transactionRows = try reader.integer(for: flag, in: 1...10_000_000)
            case "--statement-rows": statementRows = try reader.integers(for: flag, in: 1...1_000)
            case "--rooms": rooms = try reader.integer(for: flag, in: 1...100_000)
            case "--senders": senders = try reader.integer(for: flag, in: 1...1_000_000)
            case "--text-bytes": textBytes = try reader.integer(for: flag, in: 1...4_000)
            case "--label": label = try reader.string(for: flag)
            default: throw BenchError("usage", "unknown option '\(flag)'")
            }
        }
        guard !database.isEmpty else { throw BenchError("usage", "--database is required") }
        guard !statementRows.isEmpty else { throw BenchError("usage", "--statement-rows needs at least one value") }
    }
}
