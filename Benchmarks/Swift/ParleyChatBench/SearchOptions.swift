/// Settings of the search mode: a store loaded with generated messages, then searched.
struct SearchOptions {
    /// The database: an SQLite file path or a `postgres://`/`postgresql://` URL (a fresh one).
    var database = ""
    /// Messages to load.
    var messages = 1_000_000
    /// Rooms the messages are spread over.
    var rooms = 1_000
    /// Rooms the searching user is a member of.
    var memberRooms = 50
    /// Searches measured (after `warmup` unmeasured ones).
    var searches = 2_000
    var warmup = 200
    /// Hits per page.
    var limit = 20
    /// Rows per load transaction.
    var batchRows = 5_000
    /// Durable sends timed with and without the index after the searches (SQLite only; 0: none).
    var sends = 0
    /// A label for the RESULT line.
    var label = "search"

    static let usage = """
        usage: ParleyChatBench search --database PATH|postgres://... [--messages 1000000] [--rooms 1000]
                 [--member-rooms 50] [--searches 2000] [--warmup 200] [--limit 20] [--batch-rows 5000] [--sends 0] [--label NAME]
        """

    /// Whether the database is PostgreSQL (otherwise an SQLite file).
    var isPostgres: Bool { database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") }

    init(_ arguments: [String]) throws(BenchError) {
        var reader = ArgumentReader(arguments)
        while let flag = reader.nextFlag() {
            switch flag {
            case "--database": database = try reader.string(for: flag)
            case "--messages": messages = try reader.integer(for: flag, in: 1...100_000_000)
            case "--rooms": rooms = try reader.integer(for: flag, in: 1...1_000_000)
            case "--member-rooms": memberRooms = try reader.integer(for: flag, in: 1...1_000_000)
            case "--searches": searches = try reader.integer(for: flag, in: 1...10_000_000)
            case "--warmup": warmup = try reader.integer(for: flag, in: 0...1_000_000)
            case "--limit": limit = try reader.integer(for: flag, in: 1...100)
            case "--batch-rows": batchRows = try reader.integer(for: flag, in: 1...1_000_000)
            case "--sends": sends = try reader.integer(for: flag, in: 0...10_000_000)
            case "--label": label = try reader.string(for: flag)
            default: throw BenchError("usage", "unknown option '\(flag)'")
            }
        }
        guard !database.isEmpty else { throw BenchError("usage", "--database is required") }
        guard memberRooms <= rooms else { throw BenchError("usage", "--member-rooms cannot exceed --rooms") }
    }
}
