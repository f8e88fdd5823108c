import Testing

@testable import ParleyStore

/// Sends that share one writer batch: on PostgreSQL they go out as one pipeline of
/// `parley_append_message` calls, on SQLite one by one in savepoints — with the same outcomes.
@Suite("Conformance: sends batched together")
struct BatchedSendConformanceTests {
    /// Users alice, bob and mallory; room `main` (alice, bob) and room `side` (alice).
    private func prepare(_ store: SQLChatStore) async throws -> (main: Room, side: Room) {
        for id in ["alice", "bob", "mallory"] { try await store.makeUser("a", id) }
        let main = try await store.makeRoom("a", creator: "alice", members: ["bob"])
        let side = try await store.makeRoom("a", creator: "alice")
        return (main, side)
    }

    /// Holds the writer, queues `sends` in this order behind it, then lets the whole lot commit as one batch.
    private func inOneBatch(
        _ store: SQLChatStore,
        _ sends: [@Sendable () async throws -> AppendResult]
    ) async throws -> [Result<AppendResult, any Error>] {
        let gate = Gate()
        let blocker = Task { try await store.database.write { _ in gate.pass() } }
        try await eventually { gate.hasEntered }
        var tasks: [Task<AppendResult, any Error>] = []
        for (index, send) in sends.enumerated() {
            tasks.append(Task { try await send() })
            try await eventually { store.writerStatistics.queued == index + 1 }
        }
        let before = store.writerStatistics
        gate.open()
        try await blocker.value
        var results: [Result<AppendResult, any Error>] = []
        for task in tasks { results.append(await task.result) }
        let after = store.writerStatistics
        #expect(after.transactions - before.transactions == 2, "the held operation, then the queued sends as one transaction")
        return results
    }

    @Test(arguments: TestEngine.available)
    func refusedSendsInTheMiddleOfABatchLeaveTheOthersAlone(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (main, side) = try await prepare(store)
            _ = try await store.createAttachment(
                app: "a",
                NewAttachment(
                    id: "img", roomID: main.id, uploaderID: "bob",
                    contentType: "image/png", size: 3, width: 1, height: 1, storagePath: "a/img"))
            let before = store.writerStatistics
            let results = try await inOneBatch(
                store,
                [
                    { try await store.send("a", main.id, from: "alice", "one") },
                    { try await store.send("a", main.id, from: "mallory", "not a member") },
                    { try await store.send("a", "no-such-room", from: "alice", "nowhere") },
                    {
                        try await store.appendMessage(
                            app: "a", room: side.id, NewMessage(senderID: "alice", parts: [.attachment(id: "img")]))
                    },
                    {
                        try await store.appendMessage(
                            app: "a", room: main.id, NewMessage(senderID: "bob", parts: [.attachment(id: "img"), .text("two")]))
                    },
                    { try await store.send("a", side.id, from: "alice", "side one") }
                ])
            #expect(try results[0].get().message.seq == 1)
            #expect(Self.code(results[1]) == .notMember)
            #expect(Self.code(results[2]) == .notFound)
            #expect(Self.code(results[3]) == .invalidArgument, "the attachment belongs to another room")
            let withAttachment = try results[4].get().message
            #expect(withAttachment.seq == 2)
            #expect(withAttachment.parts == [.attachment(id: "img"), .text("two")])
            #expect(try results[5].get().message.seq == 1, "the refused sends consumed no seq of the side room")

            #expect(
                try await store.history(app: "a", room: main.id, .latest()).map(\.parts) == [
                    [.text("one")], [.attachment(id: "img"), .text("two")]
                ])
            #expect(try await store.room(app: "a", id: side.id).lastSeq == 1)
            let after = store.writerStatistics
            #expect(after.pipelineRetries == before.pipelineRetries, "a refusal is an answer, not an error that undoes the pipeline")
            if engine == .postgres {
                #expect(after.pipelinedOperations - before.pipelinedOperations == 6)
                #expect(
                    after.coalescedOperations - before.coalescedOperations == 3,
                    "the first three share one statement; attachments go one by one, and so does a lone send after them")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func aSendThatRaisesAnErrorFailsAloneAndTheOthersCommit(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (main, side) = try await prepare(store)
            // A row the side room's counter does not know about: its next send collides on seq 1.
            _ = try await store.database.write { context in
                try context.execute(
                    """
                    INSERT INTO messages (app_id, room_id, seq, sender_id, client_id, parts, created_at)
                    VALUES ('a', $1, 1, 'alice', NULL, '[{"type":"text","text":"planted"}]', 0)
                    """, [.text(side.id)])
            }
            let before = store.writerStatistics
            let results = try await inOneBatch(
                store,
                [
                    { try await store.send("a", main.id, from: "alice", "first", clientID: "k1") },
                    { try await store.send("a", main.id, from: "bob", "second") },
                    { try await store.send("a", side.id, from: "alice", "collides") },
                    { try await store.send("a", main.id, from: "alice", "third", clientID: "k3") }
                ])
            #expect(try results.indices.filter { $0 != 2 }.map { try results[$0].get().message.seq } == [1, 2, 3])
            #expect(Self.code(results[2]) == .alreadyExists, "the colliding send gets its own error")
            #expect(try await store.history(app: "a", room: main.id, .latest()).map(\.seq) == [1, 2, 3])
            #expect(try await store.history(app: "a", room: side.id, .latest()).map(\.parts) == [[.text("planted")]])
            #expect(try await store.room(app: "a", id: side.id).lastSeq == 0, "the failed send's seq was rolled back")
            let retry = try await store.send("a", main.id, from: "alice", "third again", clientID: "k3")
            #expect(!retry.created && retry.message.seq == 3, "the redone sends were stored once")
            if engine == .postgres {
                #expect(store.writerStatistics.pipelineRetries - before.pipelineRetries == 1)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func aRetryInsideTheSameBatchReturnsTheOriginal(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (main, _) = try await prepare(store)
            let earlier = try await store.send("a", main.id, from: "bob", "earlier", clientID: "old")
            _ = try await store.addReaction(app: "a", room: main.id, message: earlier.message.id, user: "alice", emoji: "👍")
            let results = try await inOneBatch(
                store,
                [
                    { try await store.send("a", main.id, from: "alice", "original", clientID: "c-1") },
                    { try await store.send("a", main.id, from: "alice", "retried", clientID: "c-1") },
                    { try await store.send("a", main.id, from: "bob", "earlier, retried", clientID: "old") },
                    { try await store.send("a", main.id, from: "bob", "same id, other sender", clientID: "c-1") }
                ])
            let original = try results[0].get()
            let retried = try results[1].get()
            #expect(original.created && original.message.seq == 2)
            #expect(!retried.created)
            #expect(retried.message == original.message, "the retry answers the original, text and all")
            let retriedEarlier = try results[2].get()
            #expect(!retriedEarlier.created)
            #expect(retriedEarlier.message.parts == [.text("earlier")])
            #expect(
                retriedEarlier.message.reactions == [ReactionCount(emoji: "👍", count: 1)], "a retry's original comes with its reactions")
            #expect(try results[3].get().message.seq == 3)
            #expect(try await store.history(app: "a", room: main.id, .latest()).map(\.seq) == [1, 2, 3])
        }
    }

    @Test(arguments: TestEngine.available)
    func manySendersOverManyRoomsGetDenseSeqsAndTheirCursors(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let senders = (0..<8).map { "u\($0)" }
            for sender in senders { try await store.makeUser("a", sender) }
            var rooms: [Room] = []
            for index in 0..<6 { rooms.append(try await store.makeRoom("a", creator: senders[index], members: senders)) }
            let perSender = 12
            let roomIDs = rooms.map(\.id)
            let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for (senderIndex, sender) in senders.enumerated() {
                    for index in 0..<perSender {
                        group.addTask {
                            try await store.send(
                                "a", roomIDs[(senderIndex + index) % roomIDs.count], from: sender, "m\(index)",
                                clientID: "\(sender)-\(index)")
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == senders.count * perSender)
            for room in roomIDs {
                let sent = results.filter { $0.message.roomID == room }
                #expect(sent.map(\.message.seq).sorted() == Array(1...Int64(sent.count)), "dense seqs in room \(room)")
                let history = try await store.history(app: "a", room: room, HistoryQuery(limit: 100))
                #expect(history.map(\.id).sorted() == sent.map(\.message.id).sorted())
                let cursors = try await store.readCursors(app: "a", room: room)
                for sender in senders {
                    let latest = sent.filter { $0.message.senderID == sender }.map(\.message.seq).max() ?? 0
                    let cursor = cursors.first { $0.userID == sender }?.seq ?? 0
                    #expect(cursor == latest, "\(sender)'s cursor in \(room) is at their latest message")
                }
            }
            if engine == .postgres {
                let statistics = store.writerStatistics
                #expect(statistics.pipelinedOperations > 0, "concurrent sends shared pipelines")
                #expect(statistics.coalescedOperations > 0, "and statements")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func awkwardTextAndClientIDsSurviveABatch(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (main, _) = try await prepare(store)
            let texts = [#"{"a","b"}"#, #"back\slash " quote, comma"#, "NULL", " ", "line\nbreak\n\t}{", "👩‍👩‍👧 é 中文", "$1 $$ ;"]
            let clientID: @Sendable (Int) -> String? = { $0.isMultiple(of: 2) ? #"id "\{\#($0)},"# : nil }
            let sends: [@Sendable () async throws -> AppendResult] = texts.enumerated().map { index, text in
                { try await store.send("a", main.id, from: "alice", text, clientID: clientID(index)) }
            }
            let results = try await inOneBatch(store, sends)
            #expect(try results.map { try $0.get().message.parts } == texts.map { [MessagePart.text($0)] })
            let history = try await store.history(app: "a", room: main.id, .latest())
            #expect(history.map(\.parts) == texts.map { [MessagePart.text($0)] })
            #expect(history.map(\.clientID) == texts.indices.map(clientID))
            let retry = try await store.send("a", main.id, from: "alice", "again", clientID: clientID(0))
            #expect(!retry.created && retry.message.parts == [.text(texts[0])])
        }
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil, "needs PARLEY_TEST_POSTGRES_URL"))
    func aBatchOfSendsCostsAFewRoundTripsNotSevenPerMessage() async throws {
        try await withStore(.postgres) { store in
            let (main, _) = try await prepare(store)
            _ = try await inOneBatch(
                store,
                [  // prepares the pipeline's statements once
                    { try await store.send("a", main.id, from: "alice", "warm-up") },
                    { try await store.send("a", main.id, from: "bob", "warm-up") }
                ])
            let count = 40
            let before = store.writerStatistics
            let sends: [@Sendable () async throws -> AppendResult] = (0..<count).map { index in
                { try await store.send("a", main.id, from: index.isMultiple(of: 2) ? "alice" : "bob", "m\(index)", clientID: "r\(index)") }
            }
            let results = try await inOneBatch(store, sends)
            #expect(try results.map { try $0.get().message.seq } == Array(3...Int64(count + 2)))
            let roundTrips = store.writerStatistics.roundTrips - before.roundTrips
            // The held operation's BEGIN and COMMIT, then the sends' BEGIN, pipeline and COMMIT.
            #expect(roundTrips <= 5, "\(roundTrips) round trips for \(count) sends")
        }
    }

    private static func code(_ result: Result<AppendResult, any Error>) -> StoreError.Code? {
        guard case .failure(let error as StoreError) = result else { return nil }
        return error.code
    }
}
