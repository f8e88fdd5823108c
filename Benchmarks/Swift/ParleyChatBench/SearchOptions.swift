/// Settings of the search mode: a seeded store searched through `SearchStore`.
struct SearchOptions {
    /// The SQLite file (created and seeded when new).
    var database = ""
    /// A PostgreSQL URL instead of an SQLite file.
    var postgres = ""
    /// Messages to seed.
    var messages = 1_000_000
    /// Rooms the messages are spread over.
    var rooms = 1_000
    /// Rooms the searching user is a member of (spread evenly over all rooms).
    var memberRooms = 50
    /// Users who send the messages.
    var senders = 1_000
    /// Messages per seeding transaction.
    var transactionRows = 10_000
    /// Measured searches per kind of query (after `warmup` untimed ones).
    var samples = 500
    /// Untimed searches per kind before the measured ones.
    var warmup = 50
    /// Hits per page (the REST default).
    var limit = 20
    /// The seed of the generator behind the words and the queries.
    var seed: UInt64 = 22
    /// A label for the RESULT line.
    var label = "search"
    /// SQLite: let the writer merge the search index while idle (the store's default).
    var idleMerge = true
    /// PostgreSQL: `VACUUM ANALYZE` before the searches. Off, the messages written since the last
    /// vacuum are on pages the visibility map does not call all-visible, as between autovacuum
    /// runs on a live server.
    var vacuum = true
    /// Messages written after seeding (or reuse), in `burstTransactionRows` per transaction, before the searches.
    var burst = 0
    /// Rows per transaction of the burst: a busy server's batch, so the search queue moves into
    /// the index every 1,024 messages as it does for sends.
    var burstTransactionRows = 256
    /// Seconds, at most, to leave the store idle before the searches (ends early once the idle merge is done).
    var idleSeconds = 0

    static let usage = """
        usage: ParleyChatBench search --database PATH | --postgres URL [--messages 1000000] [--rooms 1000]
                 [--member-rooms 50] [--senders 1000] [--txn-rows 10000] [--samples 500] [--warmup 50]
                 [--limit 20] [--seed 22] [--label NAME] [--no-idle-merge] [--burst MESSAGES]
                 [--burst-txn-rows 256] [--idle-seconds 0] [--no-vacuum]
               (a database seeded before with the same --messages, --rooms, --member-rooms, --senders and
                --seed is searched again without seeding; --burst adds messages to it: use a copy)
        """

    /// Whether the store is PostgreSQL.
    var isPostgres: Bool { !postgres.isEmpty }

    init(_ arguments: [String]) throws(BenchError) {
        var reader = ArgumentReader(arguments)
        while let flag = reader.nextFlag() {
            switch flag {
            case "--database": database = try reader.string(for: flag)
            case "--postgres": postgres = try reader.string(for: flag)
            case "--messages": messages = try reader.integer(for: flag, in: 1...100_000_000)
            case "--rooms": rooms = try reader.integer(for: flag, in: 1...1_000_000)
            case "--member-rooms": memberRooms = try reader.integer(for: flag, in: 1...1_000_000)
            case "--senders": senders = try reader.integer(for: flag, in: 1...1_000_000)
            case "--txn-rows": transactionRows = try reader.integer(for: flag, in: 1...1_000_000)
            case "--samples": samples = try reader.integer(for: flag, in: 1...1_000_000)
            case "--warmup": warmup = try reader.integer(for: flag, in: 0...1_000_000)
            case "--limit": limit = try reader.integer(for: flag, in: 1...50)
            case "--seed": seed = UInt64(try reader.integer(for: flag, in: 0...Int.max))
            case "--label": label = try reader.string(for: flag)
            case "--no-idle-merge": idleMerge = false
            case "--no-vacuum": vacuum = false
            case "--burst": burst = try reader.integer(for: flag, in: 0...100_000_000)
            case "--burst-txn-rows": burstTransactionRows = try reader.integer(for: flag, in: 1...1_000_000)
            case "--idle-seconds": idleSeconds = try reader.integer(for: flag, in: 0...3_600)
            default: throw BenchError("usage", "unknown option '\(flag)'")
            }
        }
        guard database.isEmpty != postgres.isEmpty else { throw BenchError("usage", "give one of --database and --postgres") }
        guard memberRooms <= rooms else { throw BenchError("usage", "--member-rooms must not exceed --rooms") }
    }
}
