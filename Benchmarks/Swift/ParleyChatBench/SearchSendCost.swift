import ParleyStore

/// The send path's cost of the index, on SQLite, in one run: durable sends per second through
/// `appendMessage` from many concurrent senders with the index, then with migration 8's
/// triggers dropped (the database is the benchmark's own; it is not used afterwards).
struct SearchSendCost {
    let sends: Int
    let concurrency = 64

    /// Sends per second with the index, and without it.
    func run(_ store: SQLChatStore, app: String, rooms: Int, text: inout SearchText) async throws -> (indexed: Double, plain: Double) {
        let indexed = try await measure(store, app: app, rooms: rooms, text: &text)
        try await store.database.write { context in
            for trigger in ["message_search_insert", "message_search_update", "message_search_delete"] {
                _ = try context.execute("DROP TRIGGER \(trigger)")
            }
        }
        let plain = try await measure(store, app: app, rooms: rooms, text: &text)
        return (indexed, plain)
    }

    private func measure(_ store: SQLChatStore, app: String, rooms: Int, text: inout SearchText) async throws -> Double {
        let bodies = (0..<sends).map { _ in text.message() }
        let start = BenchClock.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<concurrency {
                group.addTask {
                    var index = lane
                    while index < bodies.count {
                        let room = index % rooms
                        _ = try await store.appendMessage(
                            app: app, room: "r\(room)", NewMessage(senderID: "u\(room % 200)", parts: [.text(bodies[index])]))
                        index += concurrency
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(sends) / (Double(BenchClock.now() - start) / 1e9)
    }
}
