import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyUI

func makeClient(_ server: InMemoryChatServer, _ user: String, clock: ManualClock) throws -> ParleyClient {
    server.addUser(user, name: user.prefix(1).uppercased() + user.dropFirst())
    return try ParleyClient(
        configuration: ParleyConfiguration(serverURL: "http://fake", appKey: server.appKey),
        tokenProvider: StaticTokenProvider(server.token(for: user)), http: server, realtime: server,
        clock: clock, random: { 0.5 })
}

/// The first snapshot from `stream` satisfying `done`.
func first<Snapshot: Sendable>(_ stream: AsyncStream<Snapshot>, where done: (Snapshot) -> Bool) async -> Snapshot? {
    for await snapshot in stream where done(snapshot) { return snapshot }
    return nil
}

@Suite struct ConversationModelTests {
    let clock = ManualClock(now: 1_700_000_000_000)
    let server: InMemoryChatServer
    let alice: ParleyClient
    let roomID: String

    init() async throws {
        server = InMemoryChatServer(clock: clock)
        server.addUser("bob", name: "Bob")
        alice = try makeClient(server, "alice", clock: clock)
        roomID = try await alice.createRoom(name: "general", memberIDs: ["bob"]).id
    }

    func model(limit: Int = 256, drafts: DraftStore = DraftStore()) async throws -> ConversationModel {
        try await alice.connect()
        let model = ConversationModel(client: alice, roomID: roomID, drafts: drafts, options: .init(characterLimit: limit))
        await model.start()
        return model
    }

    /// An attachment deleted while the conversation is open is marked on every row naming it,
    /// and on no other.
    @Test func aDeletedAttachmentIsMarkedOnTheRowsNamingIt() async throws {
        let model = try await model()
        _ = try await alice.send([.attachment(id: "att-1")], to: roomID)
        _ = try await alice.send([.attachment(id: "att-2")], to: roomID)
        _ = await first(model.snapshots()) { $0.messages.count == 2 && $0.messages.allSatisfy { $0.status == .sent } }
        server.publishRaw(event: "attachment.deleted", data: #"{"room_id":"\#(roomID)","attachment_id":"att-1"}"#, in: roomID)
        let marked = await first(model.snapshots()) { !($0.messages.first?.deletedAttachmentIDs.isEmpty ?? true) }
        #expect(marked?.messages.map(\.deletedAttachmentIDs) == [["att-1"], []])
    }

    @Test func outgoingGoesPendingSentSeenAndIncomingIsOrderedOnce() async throws {
        server.post("earlier", as: "bob", in: roomID)
        server.setReachable(false)
        let model = try await model()
        await model.updateDraft("hi bob")
        await model.send()
        let pending = await model.snapshot()
        #expect(pending.messages.last?.status == .pending)
        #expect(pending.messages.last?.direction == .outgoing)
        #expect(pending.composer.draft == "")
        #expect(pending.banner != nil)
        // The reconnect loop and the outbox retry both wait for backoff.
        while clock.sleeperCount < 2 { await Task.yield() }
        server.setReachable(true)
        clock.advance(by: .seconds(60))
        let sent = await first(model.snapshots()) { $0.messages.last?.status == .sent && $0.banner == nil }
        #expect(sent?.messages.map(\.text) == ["earlier", "hi bob"])
        #expect(sent?.messages.map(\.direction) == [.incoming, .outgoing])
        #expect(sent?.title == "general")
        server.setDuplicating(true)
        server.post("reply", as: "bob", in: roomID)
        let replied = await first(model.snapshots()) { $0.messages.count == 3 }
        #expect(replied?.messages.map(\.seq) == [1, 2, 3])
        #expect(replied?.messages.last?.senderName == "Bob")
        // Bob reads up to alice's message: "seen".
        let bob = try makeClient(server, "bob", clock: clock)
        _ = try await bob.cursors(in: roomID)
        let sleepers = clock.sleeperCount
        try await bob.markRead(roomID, upTo: 3)
        while clock.sleeperCount <= sleepers { await Task.yield() }
        clock.advance(by: .seconds(1))
        let seen = await first(model.snapshots()) { $0.messages.first { $0.text == "hi bob" }?.status == .seen }
        #expect(seen?.messages.first { $0.text == "hi bob" }?.seenBy == ["bob"])
        #expect(seen?.messages.count == 3)
    }

    @Test func aFailedMessageCanBeRetried() async throws {
        let model = try await model()
        // Written offline, refused once the server is back: the entry stays, marked failed.
        server.setReachable(false)
        await model.updateDraft("refused once")
        await model.send()
        server.refuseSends([(status: 422, code: "validation_failed")])
        server.setReachable(true)
        while clock.sleeperCount < 2 { await Task.yield() }
        clock.advance(by: .seconds(60))
        let failed = await first(model.snapshots()) { if case .failed = $0.messages.last?.status { true } else { false } }
        let clientID = try #require(failed?.messages.last?.clientID)
        await model.retry(clientID: clientID)
        let sent = await first(model.snapshots()) { $0.messages.last?.status == .sent }
        #expect(sent?.messages.map(\.text) == ["refused once"])
        #expect(server.messages(in: roomID).count == 1)
    }

    @Test func aSendTheServerRefusesKeepsTheDraftAndSaysWhy() async throws {
        let model = try await model()
        server.refuseSends([(status: 422, code: "validation_failed")])
        await model.updateDraft("refused")
        await model.send()
        let snapshot = await model.snapshot()
        #expect(snapshot.notice == "Not sent: validation_failed")
        #expect(snapshot.composer.draft == "refused")
        #expect(snapshot.messages.isEmpty)
        #expect(try await alice.outbox().isEmpty)
    }

    @Test func composerCountsKeepsDraftsPerRoomAndEnforcesTheLimit() async throws {
        let drafts = DraftStore()
        let model = try await model(limit: 10, drafts: drafts)
        await model.updateDraft("12345")
        var composer = await model.snapshot().composer
        #expect(composer.counterText == "5/10")
        #expect(composer.remaining == 5)
        #expect(composer.canSend)
        await model.updateDraft("12345678901")
        composer = await model.snapshot().composer
        #expect(composer.isOverLimit)
        #expect(!composer.canSend)
        await model.send()
        #expect(await model.snapshot().notice == "Message is 1 characters too long")
        #expect(server.messages(in: roomID).isEmpty)
        await model.updateDraft("   ")
        #expect(await !model.snapshot().composer.canSend)
        await model.updateDraft("kept")
        // Another room has its own draft; this one's survives a new model.
        #expect(await drafts.draft(for: "other") == "")
        let again = ConversationModel(client: alice, roomID: roomID, drafts: drafts)
        await again.start()
        #expect(await again.snapshot().composer.draft == "kept")
        #expect(ComposerState(draft: "👍🏽é", limit: 256).count == 2)
    }

    @Test func typingLineAppearsAndExpires() async throws {
        let model = try await model()
        await waitForSubscribers()
        let sleepers = clock.sleeperCount
        server.typing("bob", in: roomID)
        let typing = await first(model.snapshots()) { $0.typingLine == "Bob is typing…" }
        #expect(typing?.typingLine == "Bob is typing…")
        while clock.sleeperCount <= sleepers { await Task.yield() }
        clock.advance(by: .seconds(3))
        let expired = await first(model.snapshots()) { $0.typingLine == nil }
        #expect(expired?.typingLine == nil)
    }

    @Test func daySeparatorsSplitMessagesByDay() async throws {
        server.post("monday", as: "bob", in: roomID)
        clock.advance(by: .seconds(3600))
        server.post("monday later", as: "bob", in: roomID)
        clock.advance(by: .seconds(86_400))
        server.post("tuesday", as: "bob", in: roomID)
        let model = try await model()
        let items = await model.snapshot().items
        let shape = items.map { item -> String in
            switch item {
            case .day(let day): "[\(day)]"
            case .message(let row): row.text
            }
        }
        #expect(shape == ["[2023-11-14]", "monday", "monday later", "[2023-11-15]", "tuesday"])
        #expect(DayStamp(milliseconds: 0).description == "1970-01-01")
        #expect(DayStamp(milliseconds: -1).description == "1969-12-31")
        #expect(DayStamp(milliseconds: 951_782_400_000).description == "2000-02-29")
    }

    @Test func loadOlderPrependsHistory() async throws {
        for index in 1...5 { server.post("m\(index)", as: "bob", in: roomID) }
        try await alice.connect()
        let model = ConversationModel(client: alice, roomID: roomID, options: .init(pageSize: 2))
        await model.start()
        #expect(await model.snapshot().messages.map(\.seq) == [4, 5])
        #expect(await model.snapshot().hasOlder)
        await model.loadOlder()
        await model.loadOlder()
        let all = await model.snapshot()
        #expect(all.messages.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(!all.hasOlder)
    }

    @Test func loadThroughReadsBackToAMessageWithoutAGapAndStopsAtItsLimit() async throws {
        for index in 1...300 { server.post("m\(index)", as: "bob", in: roomID) }
        try await alice.connect()
        let model = ConversationModel(client: alice, roomID: roomID, options: .init(pageSize: 20))
        await model.start()
        #expect(await model.snapshot().messages.first?.seq == 281)
        #expect(await model.loadThrough(seq: 40, context: 5))
        let loaded = await model.snapshot()
        // From five before it up to the newest, every message: pages of up to 100 read back.
        #expect(loaded.messages.map(\.seq) == Array(35...300))
        #expect(loaded.hasOlder)
        #expect(await model.loadThrough(seq: 200), "already loaded")
        #expect(await model.snapshot().messages.count == loaded.messages.count, "nothing more read")

        await model.stop()

        for index in 301...(300 + ConversationModel.loadThroughLimit) { server.post("m\(index)", as: "bob", in: roomID) }
        // A client of its own: nothing cached from the first model.
        let fresh = try makeClient(server, "alice", clock: clock)
        try await fresh.connect()
        let far = ConversationModel(client: fresh, roomID: roomID, options: .init(pageSize: 20))
        await far.start()
        #expect(await far.loadThrough(seq: 10) == false, "further back than the limit")
        #expect(await far.snapshot().messages.count == 20 + ConversationModel.loadThroughLimit)
        await far.stop()
        await fresh.close()
    }

    @Test func editsDeletesAndReactionsShowUp() async throws {
        let model = try await model()
        await model.updateDraft("typo")
        await model.send()
        let sent = await first(model.snapshots()) { $0.messages.last?.status == .sent }
        let id = try #require(sent?.messages.last?.messageID)
        await model.edit(messageID: id, text: "fixed")
        await model.react("👍", to: id)
        let edited = await model.snapshot().messages.last
        #expect(edited?.text == "fixed")
        #expect(edited?.isEdited == true)
        #expect(edited?.reactions == [ReactionCount(emoji: "👍", count: 1)])
        await model.delete(messageID: id)
        #expect(await model.snapshot().messages.last?.isDeleted == true)
    }

    func waitForSubscribers() async {
        while server.subscriberCount("private-room-" + roomID) < 1 { await Task.yield() }
    }
}
