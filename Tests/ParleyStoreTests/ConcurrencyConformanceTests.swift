import Testing

@testable import ParleyStore

@Suite("Conformance: concurrent writers")
struct ConcurrencyConformanceTests {
    @Test(arguments: TestEngine.available)
    func concurrentRetriesOfOneSendStoreOneMessage(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for _ in 0..<60 {
                    group.addTask { try await store.send("a", room.id, from: "alice", "only once", clientID: "retry-me") }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(results.map(\.message.id)).count == 1)
            #expect(results.filter(\.created).count == 1)
            #expect(try await store.room(app: "a", id: room.id).lastSeq == 1)
            #expect(try await store.history(app: "a", room: room.id, .latest()).count == 1)
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentAppendsGetGaplessSeqs(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let senders = ["s0", "s1", "s2", "s3", "s4"]
            for sender in senders { try await store.makeUser("a", sender) }
            let rooms = [
                try await store.makeRoom("a", creator: "s0", members: senders),
                try await store.makeRoom("a", creator: "s1", members: senders)
            ]
            let perRoom = 150
            let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for room in rooms {
                    for index in 0..<perRoom {
                        group.addTask {
                            try await store.send("a", room.id, from: senders[index % senders.count], "m\(index)", clientID: "c\(index)")
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for room in rooms {
                let seqs = results.filter { $0.message.roomID == room.id }.map(\.message.seq).sorted()
                #expect(seqs == Array(1...Int64(perRoom)), "every acknowledged message has its own seq, none skipped")
                let history = try await store.history(app: "a", room: room.id, HistoryQuery(limit: 1_000))
                #expect(history.map(\.seq) == Array(1...Int64(perRoom)))
                #expect(try await store.room(app: "a", id: room.id).lastSeq == Int64(perRoom))
            }
            let statistics = store.writerStatistics
            #expect(statistics.operations >= 2 * perRoom)
        }
    }
}
