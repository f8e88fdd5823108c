import ParleyStore

/// The search benchmark: loads `messages` generated messages into `rooms` rooms of a fresh
/// store (rooms and members through the store's API, messages by multi-row INSERTs in large
/// transactions, indexed by the same triggers or generated column as a send), then measures
/// `searchMessages` for a user who is a member of `memberRooms` of them — through the store,
/// so the figures are the database's plus highlighting, without HTTP.
struct SearchRun {
    let options: SearchOptions

    /// Latencies by query kind and overall.
    struct Outcome {
        var loadSeconds: Double
        var byKind: [(SearchText.QueryKind, LatencySummary)]
        var overall: LatencySummary
        var meanHits: Double
        /// Durable sends per second with and without the index (`--sends`).
        var sendsPerSecond: (indexed: Double, plain: Double)?
    }

    func run() async throws -> Outcome {
        let location: StoreLocation = options.isPostgres ? .postgres(url: options.database) : .sqlite(path: options.database)
        let store = try await SQLChatStore.open(StoreConfiguration(location: location, readerCount: 2))
        var text = SearchText()
        let app = "bench"
        let loadStart = BenchClock.now()
        try await createRooms(store, app: app)
        try await loadMessages(store, app: app, text: &text)
        let loadSeconds = Double(BenchClock.now() - loadStart) / 1e9

        var samples: [SearchText.QueryKind: [UInt64]] = [:]
        var all: [UInt64] = []
        var hits = 0
        let kinds = SearchText.QueryKind.allCases
        for index in 0..<(options.warmup + options.searches) {
            let kind = kinds[index % kinds.count]
            let query = MessageSearch(text: text.query(kind), user: "probe", limit: options.limit)
            let start = BenchClock.now()
            let found = try await store.searchMessages(app: app, query)
            let elapsed = BenchClock.now() - start
            guard index >= options.warmup else { continue }
            samples[kind, default: []].append(elapsed)
            all.append(elapsed)
            hits += found.count
        }
        var sendRates: (indexed: Double, plain: Double)?
        if options.sends > 0, !options.isPostgres {
            sendRates = try await SearchSendCost(sends: options.sends).run(store, app: app, rooms: options.memberRooms, text: &text)
        }
        await store.close()
        return Outcome(
            loadSeconds: loadSeconds, byKind: kinds.map { ($0, LatencySummary(nanoseconds: samples[$0] ?? [])) },
            overall: LatencySummary(nanoseconds: all), meanHits: Double(hits) / Double(max(1, options.searches)),
            sendsPerSecond: sendRates)
    }

    /// 200 senders, each room created by one of them; the probe user joins the first `memberRooms`.
    private func createRooms(_ store: SQLChatStore, app: String) async throws {
        for index in 0..<200 { _ = try await store.createUser(app: app, NewUser(id: "u\(index)", name: "User \(index)")) }
        _ = try await store.createUser(app: app, NewUser(id: "probe", name: "Probe"))
        for index in 0..<options.rooms {
            let room = try await store.createRoom(
                app: app, NewRoom(id: "r\(index)", kind: .private, name: "room \(index)", creatorID: "u\(index % 200)", memberIDs: []))
            if index < options.memberRooms { _ = try await store.addMember(app: app, room: room.id, user: "probe", role: .member) }
        }
    }

    /// Messages round-robin over the rooms, 100 rows per INSERT, `batchRows` per transaction.
    private func loadMessages(_ store: SQLChatStore, app: String, text: inout SearchText) async throws {
        let perStatement = 100
        var loaded = 0
        var seqs = [Int64](repeating: 0, count: options.rooms)
        while loaded < options.messages {
            let count = min(options.batchRows, options.messages - loaded)
            var statements: [(String, [SQLValue])] = []
            var row = 0
            while row < count {
                let rows = min(perStatement, count - row)
                var values: [String] = []
                var parameters: [SQLValue] = []
                for offset in 0..<rows {
                    let room = (loaded + row + offset) % options.rooms
                    seqs[room] += 1
                    let base = parameters.count
                    values.append("($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4), $\(base + 5), $\(base + 6))")
                    parameters += [
                        .text(app), .text("r\(room)"), .integer(seqs[room]), .text("u\(room % 200)"),
                        .text(Self.partsJSON(text.message())), .integer(1_700_000_000_000 + Int64(loaded + row + offset))
                    ]
                }
                statements.append(
                    (
                        "INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at) VALUES "
                            + values.joined(separator: ", "), parameters
                    ))
                row += rows
            }
            let batch = statements
            try await store.database.write { context in
                for (sql, parameters) in batch { _ = try context.execute(sql, parameters) }
            }
            loaded += count
        }
        let finalSeqs = seqs
        try await store.database.write { context in
            for (room, seq) in finalSeqs.enumerated() {
                _ = try context.execute(
                    "UPDATE rooms SET last_seq = $3 WHERE app_id = $1 AND id = $2", [.text(app), .text("r\(room)"), .integer(seq)])
            }
        }
    }

    /// One text part in the column's JSON form (the generated text needs no escaping).
    private static func partsJSON(_ text: String) -> String {
        #"[{"type":"text","text":""# + text + #""}]"#
    }
}
