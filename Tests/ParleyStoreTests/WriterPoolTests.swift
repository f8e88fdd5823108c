import Testing

@testable import ParleyStore

/// PostgreSQL's pool of writers: rooms partitioned over several connections, each room's writes
/// in order on its own writer, client-id retries meeting their original, deadlocks retried.
@Suite(
    "PostgreSQL: writer pool", .enabled(if: TestEngine.postgresURL != nil, "needs PARLEY_TEST_POSTGRES_URL"),
    .timeLimit(.minutes(2)))
struct WriterPoolTests {
    /// A room of `app` whose writes go to a writer other than the general one (index 0) in a pool of `writers`.
    private func roomAwayFromGeneral(_ store: SQLChatStore, writers: Int, creator: String) async throws -> Room {
        while true {
            let room = try await store.makeRoom("a", creator: creator)
            if WriteRoute.room(app: "a", room: room.id).writerIndex(of: writers) != 0 { return room }
        }
    }

    @Test(arguments: [1, 4])
    func thePoolHasOneServerConnectionPerWriter(_ writers: Int) async throws {
        let database = try TestEngine.postgres.makeDatabase()
        defer { database.remove() }
        guard case .schema(let url, let name) = database.cleanup else { return }
        let store = try await database.open(writers: writers)
        #expect(store.database.writerCount == writers)
        let admin = try PostgresConnection(url: url)
        var backends = 0
        try admin.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", [.text(name)]) {
            backends = $0.int(0)
        }
        #expect(backends == writers + 2, "the writers and the two readers")
        #expect(store.statistics.writerQueues.count == writers)
        await store.close()
    }

    @Test
    func aRoomOnAnotherWriterCommitsWhileTheGeneralWriterIsHeld() async throws {
        try await withStore(.postgres, writers: 4) { store in
            try await store.makeUser("a", "alice")
            let room = try await roomAwayFromGeneral(store, writers: 4, creator: "alice")
            let gate = Gate()
            let blocker = Task { try await store.database.write { _ in gate.pass() } }
            try await eventually { gate.hasEntered }
            // With one writer this send would queue behind the held operation and never finish.
            let sent = try await store.send("a", room.id, from: "alice", "past the held writer")
            #expect(sent.created && sent.message.seq == 1)
            gate.open()
            try await blocker.value
        }
    }

    /// Sends to one room queued (while its writer is held) in a known order, interleaved with sends
    /// to other rooms, are numbered in that order; retries of a client id queue on the same writer
    /// and answer the original.
    @Test(arguments: [1, 4])
    func sendsToARoomCommitInTheOrderTheyWereMadeAndRetriesMeetTheirOriginal(_ writers: Int) async throws {
        try await withStore(.postgres, writers: writers) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            var others: [Room] = []
            for _ in 0..<6 { others.append(try await store.makeRoom("a", creator: "bob", members: ["alice"])) }
            let index = WriteRoute.room(app: "a", room: room.id).writerIndex(of: writers)
            let gate = Gate()
            let blocker = Task { try await store.database.write(route: .room(app: "a", room: room.id)) { _ in gate.pass() } }
            try await eventually { gate.hasEntered }

            var tasks: [Task<AppendResult, any Error>] = []
            var queued = 0  // on the held writer: each send is queued before the next one is made
            for step in 0..<24 {
                let retry = step % 6 == 5  // every sixth repeats the previous send (alice's)
                let sender = retry || step % 2 == 0 ? "alice" : "bob"
                let clientID = retry ? "c\(step - 1)" : "c\(step)"
                tasks.append(Task { try await store.send("a", room.id, from: sender, "m\(step)", clientID: clientID) })
                queued += 1
                try await eventually { store.statistics.writerQueues[index] == queued }
                let other = others[step % others.count]
                Task { _ = try? await store.send("a", other.id, from: "alice", "elsewhere \(step)") }
                if WriteRoute.room(app: "a", room: other.id).writerIndex(of: writers) == index {
                    queued += 1
                    try await eventually { store.statistics.writerQueues[index] == queued }
                }
            }
            gate.open()
            try await blocker.value
            var results: [AppendResult] = []
            for task in tasks { results.append(try await task.value) }

            let stored = results.filter(\.created)
            #expect(stored.map(\.message.seq) == Array(1...Int64(stored.count)), "seqs follow the order the sends were made")
            for (step, result) in results.enumerated() where step % 6 == 5 {
                #expect(!result.created, "a retry of c\(step - 1)")
                #expect(result.message.id == results[step - 1].message.id)
            }
            let history = try await store.history(app: "a", room: room.id, HistoryQuery(limit: 100))
            #expect(history.map(\.clientID) == stored.map(\.message.clientID))
        }
    }

    @Test(arguments: [1, 4])
    func concurrentSendsOverManyRoomsGetGaplessSeqsAndOneMessagePerClientID(_ writers: Int) async throws {
        try await withStore(.postgres, writers: writers) { store in
            let senders = ["s0", "s1", "s2"]
            for sender in senders { try await store.makeUser("a", sender) }
            var rooms: [Room] = []
            for _ in 0..<8 { rooms.append(try await store.makeRoom("a", creator: "s0", members: senders)) }
            let perRoom = 40
            let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for room in rooms {
                    for index in 0..<perRoom {
                        for _ in 0..<(index % 4 == 0 ? 2 : 1) {  // every fourth send also retried at once
                            group.addTask {
                                try await store.send("a", room.id, from: senders[index % senders.count], "m\(index)", clientID: "c\(index)")
                            }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for room in rooms {
                let mine = results.filter { $0.message.roomID == room.id }
                #expect(Set(mine.map(\.message.id)).count == perRoom, "each client id stored once")
                #expect(Set(mine.map(\.message.seq)) == Set(1...Int64(perRoom)))
                let history = try await store.history(app: "a", room: room.id, HistoryQuery(limit: 1_000))
                #expect(history.map(\.seq) == Array(1...Int64(perRoom)))
                #expect(try await store.room(app: "a", id: room.id).lastSeq == Int64(perRoom))
            }
            #expect(store.statistics.writer.operations >= rooms.count * perRoom)
        }
    }

    /// A user deleted on the general writer while rooms' writers take that user's sends: the
    /// rooms' member counts and the user's memberships end consistent, whatever ran first.
    @Test(arguments: [1, 4])
    func deletingAUserDuringSendsLeavesRoomsConsistent(_ writers: Int) async throws {
        try await withStore(.postgres, writers: writers) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            var rooms: [Room] = []
            for _ in 0..<6 { rooms.append(try await store.makeRoom("a", creator: "alice", members: ["bob"])) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for room in rooms {
                    for index in 0..<20 {
                        group.addTask {
                            do {
                                _ = try await store.send("a", room.id, from: "bob", "m\(index)", clientID: "b\(index)")
                            } catch let error as StoreError where error.code == .notMember {
                                // bob is gone: refused, as it should be after the delete
                            }
                        }
                    }
                }
                group.addTask { _ = try await store.deleteUser(app: "a", id: "bob") }
                try await group.waitForAll()
            }
            for room in rooms {
                #expect(try await store.room(app: "a", id: room.id).memberCount == 1)
                #expect(try await store.membership(app: "a", room: room.id, user: "bob") == nil)
                let history = try await store.history(app: "a", room: room.id, HistoryQuery(limit: 100))
                #expect(history.map(\.seq) == history.indices.map { Int64($0) + 1 }, "no gaps, whatever the delete cut short")
            }
        }
    }

    @Test
    func concurrentDirectRoomsBetweenTwoUsersAreOneRoom() async throws {
        try await withStore(.postgres, writers: 4) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let results = try await withThrowingTaskGroup(of: DirectRoomResult.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        index % 2 == 0
                            ? try await store.createDirectRoom(app: "a", between: "alice", and: "bob")
                            : try await store.createDirectRoom(app: "a", between: "bob", and: "alice")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(results.map(\.room.id)).count == 1)
        }
    }

    /// Two writers each holding a room row the other one wants: PostgreSQL aborts one of them for
    /// the deadlock, and its writer runs the transaction again instead of failing its caller.
    @Test
    func aDeadlockBetweenTwoWritersIsRetriedNotReported() async throws {
        try await withStore(.postgres, writers: 4) { store in
            try await store.makeUser("a", "alice")
            let first = try await store.makeRoom("a", creator: "alice")
            let second = try await roomAwayFromGeneral(store, writers: 4, creator: "alice")
            let general = Gate()
            let roomWriter = Gate()
            let rename = "UPDATE rooms SET name = $3 WHERE app_id = $1 AND id = $2"
            let left = Task {
                try await store.database.write { context in
                    try context.execute(rename, [.text("a"), .text(first.id), .text("left")])
                    general.pass()
                    try context.execute(rename, [.text("a"), .text(second.id), .text("left")])
                }
            }
            let right = Task {
                try await store.database.write(route: .room(app: "a", room: second.id)) { context in
                    try context.execute(rename, [.text("a"), .text(second.id), .text("right")])
                    roomWriter.pass()
                    try context.execute(rename, [.text("a"), .text(first.id), .text("right")])
                }
            }
            try await eventually { general.hasEntered && roomWriter.hasEntered }
            general.open()
            roomWriter.open()
            _ = try await left.value
            _ = try await right.value
            #expect(store.statistics.writer.contentionRetries >= 1, "one of the two was rolled back and run again")
            let names = [try await store.room(app: "a", id: first.id).name, try await store.room(app: "a", id: second.id).name]
            #expect(names == ["left", "left"] || names == ["right", "right"], "one transaction ran wholly after the other")
        }
    }
}
