import Testing

@testable import ParleyStore

/// A send's chat hook events are written by the send's own transaction: both are stored or
/// neither is.
@Suite("Conformance: a send and its outbox rows")
struct HookedSendConformanceTests {
    private static func events(url: String) -> HookEventBuilder {
        { message in [HookOutboxEvent(appID: "a", url: url, event: "{\"seq\":\(message.seq),\"id\":\(message.id)}")] }
    }

    @Test(arguments: TestEngine.available)
    func theSendAndItsOutboxRowAreBothStoredAndARetryAddsNone(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            for mentions in [false, true] {
                let text = mentions ? "hi @bob" : "hi"
                let message = NewMessage(senderID: "alice", clientID: "c-\(mentions)", parts: [.text(text)])
                let sent = try await store.appendMessage(
                    app: "a", room: room.id, message, hookEvents: Self.events(url: "http://127.0.0.1:9/h"))
                #expect(sent.created)
                let rows = try await store.claimHookEvents(now: 0, until: 1, limit: 10)
                #expect(rows.map(\.event) == ["{\"seq\":\(sent.message.seq),\"id\":\(sent.message.id)}"], "built from the stored message")
                try await store.removeHookEvents(ids: rows.map(\.id))

                let retry = try await store.appendMessage(
                    app: "a", room: room.id, message, hookEvents: Self.events(url: "http://127.0.0.1:9/h"))
                #expect(!retry.created && retry.message.id == sent.message.id)
                #expect(try await store.pendingHookEventCount() == 0, "a retry records no new event")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func aFailingOutboxWriteRollsTheSendBack(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            try await Self.refuseOutboxURL("http://refused", in: store)
            for text in ["plain", "with @bob"] {
                await #expect(throws: (any Error).self) {
                    try await store.appendMessage(
                        app: "a", room: room.id, NewMessage(senderID: "alice", clientID: nil, parts: [.text(text)]),
                        hookEvents: Self.events(url: "http://refused"))
                }
            }
            #expect(try await store.history(app: "a", room: room.id, HistoryQuery(before: nil, after: nil, limit: 10)).isEmpty)
            #expect(try await store.pendingHookEventCount() == 0)
            let next = try await store.send("a", room.id, from: "alice", "after")
            #expect(next.message.seq == 1, "the refused sends took no seq")
        }
    }

    /// Makes the database refuse outbox rows for `url`, as a full disk or a broken row would.
    private static func refuseOutboxURL(_ url: String, in store: SQLChatStore) async throws {
        let dialect = store.database.dialect
        try await store.database.write { context in
            if dialect == .postgres {
                try context.execute("ALTER TABLE chat_hook_outbox ADD CONSTRAINT refused_url CHECK (url <> '\(url)')")
            } else {
                try context.execute(
                    "CREATE TRIGGER refused_url BEFORE INSERT ON chat_hook_outbox WHEN NEW.url = '\(url)' BEGIN SELECT RAISE(ABORT, 'refused'); END"
                )
            }
        }
    }
}
