import Testing

@testable import ParleyStore

@Suite("Conformance: message search")
struct SearchConformanceTests {
    private func prepare(_ store: SQLChatStore) async throws -> Room {
        for id in ["alice", "bob", "mallory"] { try await store.makeUser("a", id) }
        return try await store.makeRoom("a", creator: "alice", members: ["bob"])
    }

    private func search(_ store: SQLChatStore, _ text: String, user: String? = "alice", room: String? = nil) async throws -> [SearchHit] {
        try await store.searchMessages(app: "a", MessageSearch(text: text, user: user, room: room))
    }

    /// The texts of the highlighted ranges of a hit.
    private func highlighted(_ hit: SearchHit) -> [String] {
        hit.highlights.compactMap { highlight in
            guard case .text(let text) = hit.message.parts[highlight.part] else { return nil }
            return highlight.matched(in: text)
        }
    }

    @Test(arguments: TestEngine.available)
    func findsWordsOfEveryScriptAndEmoji(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let texts = [
                "Hello World", "héllo, Café crème", "昨日は東京タワーに行った", "party time 🎉🎉 yes", "ПРИВЕТ мир",
                "write an e-mail", "thumbs 👍🏽 up", "京都 is not the capital", "Ελλάδα ΟΔΟΣ"
            ]
            var ids: [String: Int64] = [:]
            for text in texts { ids[text] = try await store.send("a", room.id, from: "alice", text).message.id }

            func found(_ query: String) async throws -> [String] {
                try await search(store, query).map { $0.message.text }.sorted()
            }
            #expect(try await found("hello") == ["Hello World", "héllo, Café crème"], "case and diacritics fold")
            #expect(try await found("CAFE") == ["héllo, Café crème"])
            #expect(try await found("東京") == ["昨日は東京タワーに行った"], "ideographs match as a phrase inside a run")
            #expect(try await found("京東").isEmpty, "the phrase keeps its order")
            #expect(try await found("京") == ["京都 is not the capital", "昨日は東京タワーに行った"])
            #expect(try await found("🎉") == ["party time 🎉🎉 yes"])
            #expect(try await found("👍") == ["thumbs 👍🏽 up"], "a skin tone does not matter")
            #expect(try await found("привет") == ["ПРИВЕТ мир"])
            #expect(try await found("οδος") == ["Ελλάδα ΟΔΟΣ"], "final sigma reads as sigma")
            #expect(try await found("e-mail") == ["write an e-mail"])
            #expect(try await found("hello world") == ["Hello World"], "every term is required")
            #expect(try await found("nothing").isEmpty)

            let tokyo = try #require(try await search(store, "東京").first)
            #expect(highlighted(tokyo) == ["東京"])
            #expect(tokyo.highlights == [SearchHighlight(part: 0, start: 3, end: 5)])
            let party = try #require(try await search(store, "🎉").first)
            #expect(highlighted(party) == ["🎉🎉"], "adjacent matches merge; offsets count UTF-16 units")
            let cafe = try #require(try await search(store, "cafe hello").first)
            #expect(highlighted(cafe) == ["héllo", "Café"])
            #expect(cafe.message.id == ids["héllo, Café crème"])
            await expectStoreError(.invalidArgument) { try await search(store, " ?! ") }
        }
    }

    @Test(arguments: TestEngine.available)
    func ranksAndPages(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let once = try await store.send("a", room.id, from: "alice", "a kiwi among many other fruits like apples and pears").message
            let thrice = try await store.send("a", room.id, from: "alice", "kiwi kiwi kiwi").message
            #expect(try await search(store, "kiwi").map(\.message.id) == [thrice.id, once.id], "more matches rank first")

            for index in 0..<5 { try await store.send("a", room.id, from: "bob", "mango \(index)") }
            var seen: [Int64] = []
            for offset in stride(from: 0, to: 6, by: 2) {
                let page = try await store.searchMessages(app: "a", MessageSearch(text: "mango", user: "alice", offset: offset, limit: 2))
                seen += page.map(\.message.id)
            }
            #expect(seen.count == 5)
            #expect(Set(seen).count == 5, "pages neither repeat nor skip")
        }
    }

    @Test(arguments: TestEngine.available)
    func neverLeaksRoomsTheUserCannotRead(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let shared = try await prepare(store)
            try await store.makeUser("b", "alice")
            try await store.makeUser("a", "carol")
            let secret = try await store.makeRoom("a", kind: .private, creator: "mallory", members: ["carol"])
            let left = try await store.makeRoom("a", kind: .public, creator: "bob", members: ["alice"])
            let doomed = try await store.makeRoom("a", kind: .public, creator: "bob", members: ["alice"])
            let otherApp = try await store.createRoom(app: "b", NewRoom(kind: .public, name: "b", creatorID: "alice", memberIDs: []))

            try await store.send("a", shared.id, from: "bob", "zebra in the shared room")
            try await store.send("a", secret.id, from: "mallory", "zebra in the private room")
            try await store.send("a", left.id, from: "bob", "zebra in the room alice leaves")
            try await store.send("a", doomed.id, from: "bob", "zebra in the room that is deleted")
            try await store.send("b", otherApp.id, from: "alice", "zebra in another app")
            #expect(try await search(store, "zebra").count == 3)

            #expect(try await store.removeMember(app: "a", room: left.id, user: "alice"))
            _ = try await store.deleteRoom(app: "a", id: doomed.id)
            let hits = try await search(store, "zebra")
            #expect(hits.map(\.message.roomID) == [shared.id])
            #expect(try await search(store, "zebra", room: secret.id).isEmpty, "naming a room does not widen the scope")
            #expect(try await search(store, "zebra", room: left.id).isEmpty)
            #expect(try await search(store, "zebra", user: "mallory").map(\.message.roomID) == [secret.id])
            let appWide = try await search(store, "zebra", user: nil)
            #expect(Set(appWide.map(\.message.roomID)) == [shared.id, secret.id, left.id], "the app sees its own rooms only")
            #expect(try await search(store, "zebra", user: nil, room: shared.id).map(\.message.roomID) == [shared.id])
        }
    }

    @Test(arguments: TestEngine.available)
    func editsAndDeletesUpdateTheIndex(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let room = try await prepare(store)
            let message = try await store.send("a", room.id, from: "alice", "the quick brown fox").message
            #expect(try await search(store, "fox").count == 1)
            _ = try await store.editMessage(app: "a", room: room.id, id: message.id, parts: [.text("the lazy dog")])
            #expect(try await search(store, "fox").isEmpty, "the old words leave the index")
            let edited = try await search(store, "dog")
            #expect(edited.map(\.message.parts) == [[.text("the lazy dog")]])
            _ = try await store.deleteMessage(app: "a", room: room.id, id: message.id)
            #expect(try await search(store, "dog").isEmpty, "a tombstone is never found")
        }
    }

    @Test(arguments: TestEngine.available)
    func migrationIndexesExistingMessages(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let first = try await database.open()
        let room = try await prepare(first)
        try await first.send("a", room.id, from: "alice", "stored before search existed 🦊")
        try await first.send("a", room.id, from: "bob", "also old: 北京")
        // Back to the schema before migration 8, with the messages in place.
        let undo =
            engine == .sqlite
            ? """
            DROP TRIGGER message_search_insert; DROP TRIGGER message_search_update; DROP TRIGGER message_search_delete;
            DROP TABLE message_search; DELETE FROM schema_migrations WHERE version = 8
            """
            : """
            ALTER TABLE messages DROP COLUMN search_vector; DROP FUNCTION parley_search_vector(TEXT);
            DROP FUNCTION parley_search_words(TEXT); DELETE FROM schema_migrations WHERE version = 8
            """
        try await first.database.write { context in try context.connection.run(undo) }
        await first.close()

        let second = try await database.open()
        #expect(try await search(second, "🦊").count == 1)
        #expect(try await search(second, "北京").map(\.message.senderID) == ["bob"])
        try await second.send("a", room.id, from: "alice", "new fox 🦊")
        #expect(try await search(second, "🦊").count == 2)
        await second.close()
    }

    /// The engine's indexing function (PostgreSQL's SQL copy of the rules, SQLite's call of the
    /// Swift code) cuts text exactly as the query side does.
    @Test(arguments: TestEngine.available)
    func engineCutsWordsLikeTheTokenizer(_ engine: TestEngine) async throws {
        let samples = [
            "Hello, World! It's 2024-05-01.", "Ünïcödé façade naïve Ærø ŁÓDŹ", "ΣΊΣΥΦΟΣ σοφός", "東京タワー、大阪。ソウル 서울에서 만나요",
            "emoji 🎉🎉 👍🏽 👨‍👩‍👧 1️⃣ ❤️ ☕", "ไปไหนมา", "tab\tnew\nline — dash “quotes” «guillemets»", "ＡＢＣ　全角！",
            "İstanbul ıiIİ", "e\u{301}cole vs école", "x²+y³ ½ © ® ™ µ", "مرحبا بالعالم שלום"
        ]
        try await withStore(engine) { store in
            for sample in samples {
                let json = MessagePartsJSON.encode([.text(sample), .url("https://example.com/notindexed"), .text("second part")])
                let sql =
                    engine == .sqlite
                    ? "SELECT parley_search_words($1)" : "SELECT array_to_string(parley_search_words($1), ' ')"
                let stored = try await store.database.read { context in
                    try context.queryFirst(sql, [.text(json)]) { $0.text(0) }
                }
                let expected = (SearchTokenizer.words(sample) + ["second", "part"]).joined(separator: " ")
                #expect(stored == expected, "\(sample)")
            }
        }
    }
}
