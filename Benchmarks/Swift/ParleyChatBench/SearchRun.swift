import ParleyStore

/// The search benchmark: seed (or reuse) a store, then time `SearchStore.searchMessages` for
/// each kind of query, one search at a time, as the searching user.
struct SearchRun {
    /// What one kind of search measured.
    struct KindOutcome {
        var name: String
        var latency: LatencySummary
        /// Hits over all measured searches, and searches that found none / had a next page.
        var hits: Int
        var empty: Int
        var more: Int
    }

    let options: SearchOptions

    func run() async throws -> String {
        let location: StoreLocation = options.isPostgres ? .postgres(url: options.postgres) : .sqlite(path: options.database)
        var configuration = StoreConfiguration(location: location)
        configuration.searchIndexMergesWhenIdle = options.idleMerge
        let store = try await SQLChatStore.open(configuration)
        do {
            let text = try await measure(store)
            await store.close()
            return text
        } catch {
            await store.close()
            throw error
        }
    }

    private func measure(_ store: SQLChatStore) async throws -> String {
        let engine = options.isPostgres ? "postgres" : "sqlite"
        var result = ResultLine(label: options.label)
        result.append("engine", engine)
        result.append("messages", String(options.messages))
        result.append("rooms", String(options.rooms))
        result.append("member_rooms", String(options.memberRooms))
        let vocabulary = SearchVocabulary()
        let seeder = SearchSeeder(store: store, options: options, vocabulary: vocabulary)
        var nextReport = 100_000
        let seeded = try await seeder.run { produced in
            if produced >= nextReport {
                FileOutput.standardOutput("seeding: \(produced) messages written or queued")
                nextReport += 100_000
            }
        }
        if seeded.reused {
            FileOutput.standardOutput("seed: reused the \(seeded.messages) messages already in the database")
        } else {
            FileOutput.standardOutput(
                "seed \(engine): \(seeded.messages) messages in \(options.rooms) rooms in \(LatencySummary.fixed(seeded.seconds, decimals: 1)) s = "
                    + "\(LatencySummary.fixed(seeded.messagesPerSecond, decimals: 0)) messages/s (transactions of \(options.transactionRows), "
                    + "index kept by the schema's triggers)")
            result.append("seed_messages_per_s", LatencySummary.fixed(seeded.messagesPerSecond, decimals: 0))
        }
        try await burstAndIdle(store, vocabulary: vocabulary)
        if let segments = try await store.searchIndexSegments() {
            FileOutput.standardOutput("search index: \(segments) segment(s) when the searches start")
            result.append("segments", String(segments))
        }
        if options.isPostgres, options.vacuum { try analyze(store) }
        let rooms = SearchSeeder.searcherRooms(options).map(SearchSeeder.room)
        var all: [UInt64] = []
        FileOutput.standardOutput(
            "searches as a member of \(rooms.count) of \(options.rooms) rooms, limit \(options.limit), \(options.samples) timed per kind after \(options.warmup) untimed:"
        )
        for kind in SearchQueries.kinds(vocabulary, seed: options.seed) {
            let (outcome, samples) = try await measure(kind, rooms: rooms, store: store)
            all += samples
            FileOutput.standardOutput(
                "  \(kind.name.padding(16)) \(outcome.latency.text)  hits/search \(LatencySummary.fixed(Double(outcome.hits) / Double(options.samples), decimals: 1))  "
                    + "none \(outcome.empty)  next page \(outcome.more)   e.g. '\(kind.texts[0])'")
            result.append(outcome.latency.fields(String(kind.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })))
        }
        let overall = LatencySummary(nanoseconds: all)
        FileOutput.standardOutput("  \("all".padding(16)) \(overall.text)")
        result.append(overall.fields("all"))
        return result.text
    }

    private func measure(_ kind: SearchQueries.Kind, rooms: [String], store: SQLChatStore) async throws -> (KindOutcome, [UInt64]) {
        var outcome = KindOutcome(name: kind.name, latency: LatencySummary(nanoseconds: []), hits: 0, empty: 0, more: 0)
        var samples: [UInt64] = []
        samples.reserveCapacity(options.samples)
        for index in 0..<(options.warmup + options.samples) {
            let text = kind.texts[index % kind.texts.count]
            let room = kind.oneRoom ? rooms[index % rooms.count] : nil
            let query = SearchQueries.query(text, room: room, limit: options.limit)
            let start = BenchClock.now()
            let page = try await store.searchMessages(app: SearchSeeder.app, user: SearchSeeder.searcher, query)
            let elapsed = BenchClock.now() - start
            guard index >= options.warmup else { continue }
            samples.append(elapsed)
            outcome.hits += page.hits.count
            if page.hits.isEmpty { outcome.empty += 1 }
            if page.nextOffset != nil { outcome.more += 1 }
        }
        outcome.latency = LatencySummary(nanoseconds: samples)
        return (outcome, samples)
    }

    /// The burst of writes and the idle time before the searches, when asked for.
    private func burstAndIdle(_ store: SQLChatStore, vocabulary: SearchVocabulary) async throws {
        let burst = SearchBurst(store: store, options: options, vocabulary: vocabulary)
        let merge = options.idleMerge ? "idle merge on" : "idle merge off"
        if let segments = try await store.searchIndexSegments() {
            FileOutput.standardOutput("search index: \(segments) segment(s) after opening (\(merge)); \(burst.report())")
        }
        if options.burst > 0 {
            let rate = try await burst.write()
            let segments = try await store.searchIndexSegments().map { "\($0) segment(s)" } ?? ""
            FileOutput.standardOutput(
                "burst: \(options.burst) messages in transactions of \(options.burstTransactionRows) at "
                    + "\(LatencySummary.fixed(rate, decimals: 0)) messages/s; index \(segments); \(burst.report())")
        }
        if options.idleSeconds > 0 { try await burst.idle() }
    }

    /// PostgreSQL: refresh the planner's statistics and the visibility map after the bulk load,
    /// as autovacuum does after this many inserts, so the plans are those of a settled table.
    private func analyze(_ store: SQLChatStore) throws {
        let start = BenchClock.now()
        try PostgresMaintenance.run("VACUUM ANALYZE", url: options.postgres)
        FileOutput.standardOutput(
            "postgres: VACUUM ANALYZE in \(LatencySummary.fixed(Double(BenchClock.now() - start) / 1e9, decimals: 1)) s")
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
