import Testing

@testable import ParleyStore

@Suite("Conformance: message search")
struct SearchConformanceTests {
    @Test(arguments: SearchSetup.all)
    func aMessageIsFoundRightAfterItsSendAndOnlyInTheCallersRooms(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let mine = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let theirs = try await store.makeRoom("a", creator: "carol")
            let private_ = try await store.makeRoom("a", kind: .private, creator: "carol")
            let sent = try await store.send("a", mine.id, from: "bob", "the banana bread is ready")
            try await store.send("a", theirs.id, from: "carol", "banana split")
            try await store.send("a", private_.id, from: "carol", "banana secret")
            try await store.makeUser("b", "alice")
            let elsewhere = try await store.makeRoom("b", creator: "alice")
            try await store.send("b", elsewhere.id, from: "alice", "banana in another app")

            _ = try await store.addReaction(app: "a", room: mine.id, message: sent.message.id, user: "alice", emoji: "👍", maxDistinct: nil)
            let page = try await store.search("a", "alice", "banana")
            #expect(page.hits.map(\.message.id) == [sent.message.id], "one of three rooms holding the word is alice's")
            let history = try await store.history(app: "a", room: mine.id, HistoryQuery(limit: 10))
            #expect(page.hits.first?.message == history.first, "the hit carries the message as history has it")
            #expect(page.hits.first?.message.reactions == [ReactionCount(emoji: "👍", count: 1)])
            #expect(page.nextOffset == nil)
            #expect(try await store.search("a", "carol", "banana").hits.count == 2)
            #expect(try await store.search("a", "alice", "bread", room: mine.id).hits.count == 1)
            #expect(try await store.search("a", "alice", "cake").hits.isEmpty)
            await expectStoreError(.notMember) { try await store.search("a", "alice", "banana", room: theirs.id) }
            await expectStoreError(.notFound) { try await store.search("a", "alice", "banana", room: "nope") }
            await expectStoreError(.invalidArgument) {
                try await store.searchMessages(app: "a", user: "alice", MessageSearchQuery(words: []))
            }
        }
    }

    /// Above the rooms one index query names (SQLite groups them) or the walk reads (PostgreSQL
    /// then asks the index for all of them at once), a member of many rooms still finds every one
    /// of them and nothing else.
    @Test(arguments: SearchSetup.all)
    func aMemberOfHundredsOfRoomsFindsThemAllAndNoOthers(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            for id in ["alice", "carol"] { try await store.makeUser("a", id) }
            var rooms: [Room] = []
            for _ in 0..<(SQLChatStore.searchWalkRoomLimit + 10) { rooms.append(try await store.makeRoom("a", creator: "alice")) }
            var expected: Set<Int64> = []
            for index in [0, 100, rooms.count - 1] {
                expected.insert(try await store.send("a", rooms[index].id, from: "alice", "ostrich egg").message.id)
            }
            let theirs = try await store.makeRoom("a", creator: "carol")
            try await store.send("a", theirs.id, from: "carol", "ostrich egg")
            #expect(Set(try await store.search("a", "alice", "ostrich").hits.map(\.message.id)) == expected)
        }
    }

    @Test(arguments: SearchSetup.all)
    func aRemovedMemberStopsFindingTheRoomsMessagesAtOnce(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            try await store.send("a", room.id, from: "alice", "quarterly numbers")
            #expect(try await store.search("a", "bob", "quarterly").hits.count == 1)
            #expect(try await store.removeMember(app: "a", room: room.id, user: "bob"))
            #expect(try await store.search("a", "bob", "quarterly").hits.isEmpty)
            await expectStoreError(.notMember) { try await store.search("a", "bob", "quarterly", room: room.id) }
        }
    }

    @Test(arguments: SearchSetup.all)
    func anEditIsFoundByItsNewTextAndNotItsOld(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            let sent = try await store.send("a", room.id, from: "alice", "meet at noon")
            _ = try await store.editMessage(app: "a", room: room.id, id: sent.message.id, parts: [.text("meet at midnight")])
            #expect(try await store.search("a", "alice", "noon").hits.isEmpty)
            let hits = try await store.search("a", "alice", "midnight").hits
            #expect(hits.map(\.message.parts) == [[.text("meet at midnight")]])
            #expect(hits.first?.message.editedAt != nil)
        }
    }

    @Test(arguments: SearchSetup.all)
    func deletedErasedAndRoomlessMessagesAreNotFound(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            let own = try await store.send("a", room.id, from: "alice", "walrus one")
            let moderated = try await store.send("a", room.id, from: "bob", "walrus two")
            try await store.send("a", room.id, from: "carol", "walrus three")
            let kept = try await store.send("a", room.id, from: "alice", "walrus four")
            #expect(try await store.search("a", "alice", "walrus").hits.count == 4)

            _ = try await store.deleteMessage(app: "a", room: room.id, id: own.message.id, audit: nil)
            let audit = NewAuditEntry(action: "message_deleted", actorID: "alice", targetMessageID: moderated.message.id)
            _ = try await store.deleteMessage(app: "a", room: room.id, id: moderated.message.id, audit: audit)
            #expect(try await store.search("a", "alice", "walrus").hits.count == 2, "own and moderator deletes")
            _ = try await store.eraseUser(
                app: "a", user: "carol", mode: .delete, audit: AppAuditEntry(actor: "admin", action: "user_erased", target: "carol"))
            #expect(try await store.search("a", "alice", "walrus").hits.map(\.message.id) == [kept.message.id], "erased")

            let other = try await store.makeRoom("a", creator: "alice")
            try await store.send("a", other.id, from: "alice", "walrus five")
            _ = try await store.deleteRoom(app: "a", id: room.id)
            #expect(try await store.search("a", "alice", "walrus").hits.map(\.message.parts) == [[.text("walrus five")]])
        }
    }

    @Test(arguments: SearchSetup.all)
    func messagesOfBlockedSendersAreLeftOut(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            try await store.send("a", room.id, from: "bob", "lunch today")
            let carols = try await store.send("a", room.id, from: "carol", "lunch tomorrow")
            #expect(try await store.block(app: "a", blocker: "alice", blocked: "bob"))
            #expect(try await store.search("a", "alice", "lunch").hits.map(\.message.id) == [carols.message.id])
            #expect(try await store.search("a", "carol", "lunch").hits.count == 2, "only the blocker stops seeing them")
            #expect(try await store.block(app: "b", blocker: "alice", blocked: "carol"))
            #expect(try await store.search("a", "alice", "lunch").hits.count == 1, "a block in another app does not count")
        }
    }

    /// Blocked senders are left out before the newest candidates are cut: many newer messages
    /// of a blocked user must not crowd out older ones of others.
    @Test(arguments: SearchSetup.all)
    func blockedSendersAreLeftOutBeforeTheCandidatesAreCut(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            for index in 0..<3 { try await store.send("a", room.id, from: "carol", "lunch \(index)") }
            for index in 0..<(MessageSearchQuery.candidateLimit + 10) {
                try await store.send("a", room.id, from: "bob", "lunch again \(index)")
            }
            #expect(try await store.block(app: "a", blocker: "alice", blocked: "bob"))
            let found = try await store.search("a", "alice", "lunch").hits.map(\.message.senderID)
            #expect(found == ["carol", "carol", "carol"], "\(found)")
        }
    }

    @Test(arguments: SearchSetup.all)
    func everyWordMustMatchAndTheLastMayBeAPrefix(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            let both = try await store.send("a", room.id, from: "alice", "red apples and green pears")
            let one = try await store.send("a", room.id, from: "alice", "red cars")
            #expect(try await store.search("a", "alice", "red").hits.count == 2)
            #expect(try await store.search("a", "alice", "red pears").hits.map(\.message.id) == [both.message.id])
            #expect(try await store.search("a", "alice", "pears red").hits.map(\.message.id) == [both.message.id])
            #expect(try await store.search("a", "alice", "red app").hits.isEmpty, "a whole word unless asked")
            #expect(try await store.search("a", "alice", "red app", prefix: true).hits.map(\.message.id) == [both.message.id])
            #expect(try await store.search("a", "alice", "ca", prefix: true).hits.map(\.message.id) == [one.message.id])
            #expect(try await store.search("a", "alice", "app red", prefix: true).hits.isEmpty, "only the last word is a prefix")
        }
    }

    /// Text in each script, and a query written another way (case, accents) that must find it and
    /// nothing else.
    static let scripts: [(text: String, query: String)] = [
        ("Un café crème, s'il vous plaît", "CAFE CREME"),
        ("the resume is attached", "Résumé"),
        ("İstanbul ve Ankara", "istanbul"),
        ("Straße am Fluß", "straße"),
        ("Привет, МИР", "привет мир"),
        ("ΟΔΟΣ Καλημέρα", "οδοσ καλημέρα"),
        ("مرحبا بالعالم", "مرحبا"),
        ("नमस्ते दुनिया", "नमस्ते"),
        ("我爱北京天安门", "北京"),
        ("東京タワーに行きます", "タワー"),
        ("안녕하세요 세계", "안녕"),
        ("great job 👍🏽", "👍"),
        ("family 👨‍👩‍👧 photo", "👧"),
        ("area x² and ½ cup", "x² ½"),
        ("naïve café", "naive"),
        ("nul\u{0}byte and C:\\u0000x", "byte u0000x")
    ]

    @Test(arguments: SearchSetup.all)
    func everyScriptIsFoundTheWayTheTokenizerCutsIt(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            var ids: [String: Int64] = [:]
            for (text, _) in Self.scripts { ids[text] = try await store.send("a", room.id, from: "alice", text).message.id }
            for (text, query) in Self.scripts {
                let found = try await store.search("a", "alice", query).hits.map(\.message.id)
                #expect(found == ids[text].map { [$0] }, "\(query) should find \(text) and nothing else")
            }
            #expect(try await store.search("a", "alice", "cafe").hits.count == 2, "café with and without the accent")
            _ = try await store.createAttachment(
                app: "a",
                NewAttachment(
                    id: "f1", roomID: room.id, uploaderID: "alice", contentType: "application/pdf", size: 3, storagePath: "a/f1"))
            let file = FilePart(attachmentID: "f1", name: "Quarterly-Report_2026.pdf", contentType: "application/pdf", size: 3)
            let withFile = try await store.appendMessage(
                app: "a", room: room.id, NewMessage(senderID: "alice", parts: [.text("see"), .file(file)]))
            #expect(try await store.search("a", "alice", "quarterly report 2026").hits.map(\.message.id) == [withFile.message.id])
            #expect(try await store.search("a", "alice", "f1").hits.isEmpty, "the attachment id is not text")
        }
    }

    @Test(arguments: SearchSetup.all)
    func pagesCoverTheRankingOnceEach(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            var sent: Set<Int64> = []
            for index in 0..<25 { sent.insert(try await store.send("a", room.id, from: "alice", "melon number \(index)").message.id) }
            var seen: [Int64] = []
            var offsets: [Int?] = []
            var offset = 0
            while true {
                let page = try await store.search("a", "alice", "melon", limit: 10, offset: offset)
                seen += page.hits.map(\.message.id)
                offsets.append(page.nextOffset)
                guard let next = page.nextOffset else { break }
                offset = next
            }
            #expect(offsets == [10, 20, nil])
            #expect(seen.count == 25 && Set(seen) == sent, "every match once")
            #expect(try await store.search("a", "alice", "melon", limit: 10, offset: 30).hits.isEmpty)
        }
    }

    @Test(arguments: SearchSetup.all)
    func moreOccurrencesRankHigherAndEqualMessagesTieNewestFirst(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            let thrice = try await store.send("a", room.id, from: "alice", "plum plum plum one two")
            let once = try await store.send("a", room.id, from: "alice", "plum one two three four")
            let twin = try await store.send("a", room.id, from: "alice", "plum one two three four")
            let hits = try await store.search("a", "alice", "plum").hits
            #expect(hits.map(\.message.id) == [thrice.message.id, twin.message.id, once.message.id])
            #expect(hits[0].score > hits[1].score)
            #expect(hits[1].score == hits[2].score, "the same words score the same")
        }
    }

    @Test(arguments: SearchSetup.all)
    func onlyTheNewestMatchesAreRanked(_ setup: SearchSetup) async throws {
        try await withStore(setup.engine, searchIndexBatch: setup.batch) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            var ids: [Int64] = []
            let total = MessageSearchQuery.candidateLimit + 5
            for index in 0..<total {
                // The oldest ones hold the word most often, so only the cut can leave them out.
                let text = index < 5 ? "fig fig fig fig" : "fig number \(index)"
                ids.append(try await store.send("a", room.id, from: "alice", text).message.id)
            }
            var found: [Int64] = []
            var offset: Int? = 0
            while let start = offset {
                let page = try await store.search("a", "alice", "fig", limit: 50, offset: start)
                found += page.hits.map(\.message.id)
                offset = page.nextOffset
            }
            #expect(found.count == MessageSearchQuery.candidateLimit)
            #expect(Set(found) == Set(ids.suffix(MessageSearchQuery.candidateLimit)))
        }
    }

    /// Room tags only narrow PostgreSQL's index scan: a message whose words carry the tag of a
    /// room of the caller (as a hash collision would) is still checked against its real room.
    @Test func postgresChecksTheRoomOfEveryRowNotOnlyItsLexeme() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            for id in ["alice", "carol"] { try await store.makeUser("a", id) }
            let mine = try await store.makeRoom("a", creator: "alice")
            let theirs = try await store.makeRoom("a", creator: "carol")
            try await store.send("a", theirs.id, from: "carol", "collision course")
            try await SearchPostgresPathsTests.tagMessages(of: theirs.id, as: mine.id, store)
            #expect(try await store.search("a", "alice", "collision").hits.isEmpty)
            #expect(try await store.search("a", "carol", "collision").hits.count == 1)
        }
    }

    /// PostgreSQL makes its words in SQL; they must be the tokenizer's, character for character.
    @Test func postgresCutsWordsAsTheTokenizerDoes() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            var texts = [
                "Hello, WORLD! ΟΔΟΣ İstanbul naïve e\u{301}x don't a_b", "東京タワー 서울 abc😀def 👍🏽 👨‍👩‍👧 ⭐️",
                "हिन्दी العربية Ελληνικά Привет x² ½ ⓐ Ⅻ", String(repeating: "я", count: 40) + "z",
                String(repeating: "a", count: 63) + "яb", "nul\u{0}byte \\u0000 \"quoted\"",
                String(repeating: "A", count: 70) + " don't_stop 42x"
            ]
            // Every character of the planes with letters, between two letters.
            var chunk = ""
            for value in UInt32(0x80)..<0x32000 {
                // Debian 12's PostgreSQL lowercases by ICU 72, which knows Unicode 15.0: letters
                // assigned since (Swift knows them) have no case mapping there.
                guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, age.major < 15 || age == (15, 0),
                    scalar.properties.generalCategory != .privateUse
                else { continue }
                chunk += "q\(Character(scalar))Q "
                if chunk.unicodeScalars.count > 4_000 {
                    texts.append(chunk)
                    chunk = ""
                }
            }
            texts.append(chunk)
            var mismatches: [String] = []
            for text in texts {
                let parts = MessagePartsJSON.encode([.text(text)])
                let sql = try await store.database.read { context in
                    try context.query(
                        "SELECT w FROM unnest(parley_search_words(parley_search_text($1))) WITH ORDINALITY AS t(w, n) ORDER BY n",
                        [.text(parts)]
                    ) { $0.text(0) }
                }
                let expected = SearchTokenizer.words(in: text)
                // By scalars: String equality would take "é" and "e\u{301}" for one word.
                if sql.map({ Array($0.unicodeScalars) }) != expected.map({ Array($0.unicodeScalars) }) {
                    let diff = zip(sql, expected).first { Array($0.unicodeScalars) != Array($1.unicodeScalars) }
                    let hex = { (word: String) in word.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ",") }
                    mismatches.append(diff.map { "\(hex($0)) vs \(hex($1))" } ?? "\(sql.count) vs \(expected.count) words")
                }
            }
            #expect(mismatches.isEmpty, "SQL vs Swift: \(mismatches.prefix(20))")
        }
    }
}

extension SQLChatStore {
    /// A search for the words of `text` as the API would cut them.
    func search(
        _ app: String, _ user: String, _ text: String, room: String? = nil, prefix: Bool = false, limit: Int = 20, offset: Int = 0
    ) async throws -> MessageSearchPage {
        try await searchMessages(
            app: app, user: user,
            MessageSearchQuery(words: SearchTokenizer.words(in: text), lastWordIsPrefix: prefix, room: room, limit: limit, offset: offset))
    }
}
