import ParleyStore

/// Fills a store for the search benchmark: users, rooms and memberships, then the messages in
/// large transactions through the store's own writer connection. Messages are inserted into
/// `messages` with the columns the send path writes (on SQLite the search document too), so the
/// full-text index is whatever the schema's triggers build from them, as for real sends.
struct SearchSeeder {
    /// What seeding did.
    struct Outcome {
        var messages: Int
        var seconds: Double
        var reused: Bool

        var messagesPerSecond: Double { seconds > 0 ? Double(messages) / seconds : 0 }
    }

    static let app = "search-bench"
    static let searcher = "search-user"
    /// Rows per INSERT statement.
    static let statementRows = 100

    let store: SQLChatStore
    let options: SearchOptions
    let vocabulary: SearchVocabulary

    static func room(_ index: Int) -> String { "search-r\(index)" }
    static func sender(_ index: Int) -> String { "search-s\(index)" }

    /// The rooms the searching user is a member of: every (rooms / memberRooms)-th.
    static func searcherRooms(_ options: SearchOptions) -> [Int] {
        (0..<options.memberRooms).map { $0 * (options.rooms / options.memberRooms) }
    }

    /// Seeds the store unless it already holds this benchmark's messages.
    func run(progress: (Int) -> Void) async throws -> Outcome {
        let existing = try await store.database.read { context in
            try context.queryFirst("SELECT count(*) FROM messages WHERE app_id = $1", [.text(Self.app)]) { $0.int(0) } ?? 0
        }
        if existing == options.messages { return Outcome(messages: existing, seconds: 0, reused: true) }
        guard existing == 0 else {
            throw BenchError("seeded", "the database holds \(existing) benchmark messages, not \(options.messages): use a fresh one")
        }
        let start = BenchClock.now()
        let withDocument = try await hasSearchDocumentColumn()
        try await seedRoomsAndMembers()
        var source = SearchMessageSource(options: options, vocabulary: vocabulary, now: RawRun.unixMilliseconds())
        // The next batch is generated (and its documents tokenized) while the last one is written.
        var pending: Task<Void, any Error>?
        while source.produced < options.messages {
            let rows = source.next(min(options.transactionRows, options.messages - source.produced))
            let seqs = source.roomSeqs
            try await pending?.value
            pending = Task { [store] in try await Self.write(rows, roomSeqs: seqs, withDocument: withDocument, store: store) }
            progress(source.produced)
        }
        try await pending?.value
        let seconds = Double(BenchClock.now() - start) / 1e9
        return Outcome(messages: options.messages, seconds: seconds, reused: false)
    }

    /// Whether `messages` has the `search_doc` column the SQLite send path fills (PostgreSQL's
    /// trigger reads the parts instead).
    private func hasSearchDocumentColumn() async throws -> Bool {
        guard !options.isPostgres else { return false }
        return try await store.database.read { context in
            try context.queryFirst("SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'search_doc'") { $0.int(0) } ?? 0
        } > 0
    }

    private func seedRoomsAndMembers() async throws {
        let options = options
        try await store.database.write { context in
            let now = context.now
            try context.execute(
                "INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ($1, $2, $2, $3, $3)",
                [.text(Self.app), .text(Self.searcher), .integer(now)])
            for sender in 0..<options.senders {
                try context.execute(
                    "INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ($1, $2, $2, $3, $3)",
                    [.text(Self.app), .text(Self.sender(sender)), .integer(now)])
            }
            let searcherRooms = Set(Self.searcherRooms(options))
            for room in 0..<options.rooms {
                var members = Set(
                    (0..<SearchMessageSource.membersPerRoom).map {
                        Self.sender(SearchMessageSource.member($0, ofRoom: room, senders: options.senders))
                    })
                if searcherRooms.contains(room) { members.insert(Self.searcher) }
                try context.execute(
                    """
                    INSERT INTO rooms (app_id, id, kind, name, last_seq, last_activity_at, member_count, created_at, updated_at)
                    VALUES ($1, $2, 'private', $2, 0, $3, $4, $3, $3)
                    """, [.text(Self.app), .text(Self.room(room)), .integer(now), .integer(Int64(members.count))])
                for member in members.sorted() {
                    try context.execute(
                        "INSERT INTO memberships (app_id, room_id, user_id, role, joined_at) VALUES ($1, $2, $3, 'member', $4)",
                        [.text(Self.app), .text(Self.room(room)), .text(member), .integer(now)])
                }
            }
        }
    }

    /// One transaction: the rows in multi-row INSERTs, then each room's last seq.
    static func write(_ rows: [SearchMessageSource.Row], roomSeqs: [Int64], withDocument: Bool, store: SQLChatStore) async throws {
        try await store.database.write { context in
            var offset = 0
            while offset < rows.count {
                let end = min(rows.count, offset + statementRows)
                let (sql, values) = insert(rows[offset..<end], withDocument: withDocument)
                try context.execute(sql, values)
                offset = end
            }
            var touched = Set<Int>()
            for row in rows { touched.insert(row.room) }
            for room in touched.sorted() {
                try context.execute(
                    "UPDATE rooms SET last_seq = $1, last_activity_at = $2 WHERE app_id = $3 AND id = $4",
                    [.integer(roomSeqs[room]), .integer(context.now), .text(app), .text(Self.room(room))])
            }
        }
    }

    private static func insert(_ rows: ArraySlice<SearchMessageSource.Row>, withDocument: Bool) -> (String, [SQLValue]) {
        let columns = withDocument ? 8 : 7
        var sql = "INSERT INTO messages (app_id, room_id, seq, sender_id, client_id, parts, created_at"
        sql += withDocument ? ", search_doc) VALUES " : ") VALUES "
        var values: [SQLValue] = []
        values.reserveCapacity(rows.count * columns)
        for (index, row) in rows.enumerated() {
            if index > 0 { sql += ", " }
            sql += "(" + (1...columns).map { "$\(index * columns + $0)" }.joined(separator: ", ") + ")"
            values += [
                .text(app), .text(room(row.room)), .integer(row.seq), .text(sender(row.sender)),
                .text("seed-\(row.room)-\(row.seq)"), .text(row.parts), .integer(row.createdAt)
            ]
            if withDocument { values.append(.text(row.document)) }
        }
        return (sql, values)
    }
}
