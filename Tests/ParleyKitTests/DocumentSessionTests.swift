import ParleyText
import Testing

@testable import ParleyKit

/// Document sessions against a real server on loopback: concurrent edits converge, offline
/// edits merge after a reconnect, bad server messages leave the replica alone.
@Suite(.timeLimit(.minutes(2)))
struct DocumentSessionTests {
    @Test func twoSessionsConvergeUnderConcurrentEdits() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice")
        let bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "docs", memberIDs: [try await bob.userID()])
        let a = try await alice.openDocument(room: room.id, name: "notes")
        let b = try await bob.openDocument(room: room.id, name: "notes")
        try await a.waitUntilSynced()
        try await b.waitUntilSynced()

        // Both type at once, whole words at word boundaries of their own choosing, without
        // waiting for the other; Bob also deletes the first word now and then.
        var generator = SeededGenerator(seed: 7)
        var aliceWords: [String] = [], bobWords: [String] = []
        for round in 0..<40 {
            let word = "a\(round)x ", other = "b\(round)y "
            aliceWords.append(word)
            bobWords.append(other)
            try await a.insert(word, atBoundary: generator.next())
            try await b.insert(other, atBoundary: generator.next())
            if round % 5 == 4 { try await b.deleteFirstWord() }
        }
        try await a.insert("ünï✓😀 ", at: 0)

        // Updates travel in order, so once Bob has Alice's last edit he has all of hers, and his
        // text cannot change any more; Alice then reaches exactly that text.
        let onBob = try #require(await waitFor(b) { $0.text.contains("ünï✓😀") })
        let onAlice = await waitFor(a) { $0.text == onBob.text }
        #expect(onAlice?.text == onBob.text)
        let text = onBob.text
        #expect(text.contains("ünï✓😀 "))
        // Every word is there whole, but the 8 Bob deleted (his view's first word each time).
        let words = text.split(separator: " ").map { String($0) + " " }
        let deleted = (aliceWords + bobWords).filter { !words.contains($0) }
        #expect(deleted.count == 8, "\(deleted) in \(text)")
        #expect(words.count == 1 + 80 - 8)

        // Each sees the other's presence.
        let peers = await waitFor(a) { $0.peers.contains { $0.presence.name == "bob" } }
        #expect(peers != nil)
        await a.close()
        await b.close()
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func offlineEditsMergeAfterReconnect() async throws {
        let server = try await LoopbackServer.start()
        let network = SwitchableTransport()
        let alice = try await server.client("Alice", documents: network)
        let bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "docs", memberIDs: [try await bob.userID()])
        let a = try await alice.openDocument(room: room.id, name: "plan")
        let b = try await bob.openDocument(room: room.id, name: "plan")
        try await a.waitUntilSynced()
        try await b.waitUntilSynced()
        try await a.insert("shared start. ", at: 0)
        await waitFor(b) { $0.text == "shared start. " }

        // Alice loses the network and keeps typing; Bob edits the same text meanwhile.
        network.setOnline(false)
        await waitFor(a) { if case .reconnecting = $0.state { true } else { false } }
        try await a.insert("alice offline one. ", at: 14)
        try await a.insert("alice offline two. ", at: await a.count)
        try await a.delete(at: 0, count: 7)  // "shared "
        try await b.insert("bob online. ", at: 0)
        #expect(await a.text == "start. alice offline one. alice offline two. ")
        #expect(await b.text == "bob online. shared start. ")

        // Back online: both replicas end with both sides' edits.
        network.setOnline(true)
        let merged: @Sendable (DocumentSnapshot) -> Bool = {
            $0.text.contains("alice offline two.") && $0.text.contains("bob online.") && !$0.text.contains("shared")
        }
        let onBob = await waitFor(b, merged)
        let onAlice = await waitFor(a) { merged($0) && $0.text == onBob?.text }
        #expect(onAlice?.text == "bob online. start. alice offline one. alice offline two. ")
        #expect(network.connects >= 2)
        await a.close()
        await b.close()
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func outsidersAndRefusedTokensEndTheSessionWithAReason() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice")
        let carol = try await server.client("Carol")
        let room = try await alice.createRoom(name: "private", memberIDs: [])
        let mine = try await alice.openDocument(room: room.id, name: "secret")
        try await mine.waitUntilSynced()
        try await mine.insert("for members only", at: 0)

        // Carol is not a member: the server closes with 4403 and the session stops for good.
        let hers = try await carol.openDocument(room: room.id, name: "secret")
        await #expect(throws: ParleyError.self) { try await hers.waitUntilSynced() }
        guard case .closed(let reason) = await hers.connectionState else {
            Issue.record("expected a closed session")
            return
        }
        #expect(await hers.text.isEmpty)
        #expect(!reason.isEmpty)
        await #expect(throws: ParleyError.self) { try await hers.insert("x", at: 0) }

        // A forged token is refused at the upgrade (401), again after a refresh: closed, not retried forever.
        let forged = DocumentSession(
            url: mine.url, tokenProvider: StaticTokenProvider("not.a.token"),
            presence: DocumentPresence(name: "mallory"),
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(20)))
        await forged.start()
        await #expect(throws: ParleyError.self) { try await forged.waitUntilSynced() }
        guard case .closed(let why) = await forged.connectionState else {
            Issue.record("expected a closed session")
            return
        }
        #expect(why.contains("refused the token"))
        #expect(await mine.text == "for members only")
        await mine.close()
        await alice.close()
        await carol.close()
        await server.stop()
    }

    @Test func anEditTheServerRefusesAsTooLargeEndsTheSessionInsteadOfRetrying() async throws {
        let server = try await LoopbackServer.start()
        let network = SwitchableTransport()
        let alice = try await server.client("Alice", documents: network)
        let room = try await alice.createRoom(name: "docs", memberIDs: [])
        let session = try await alice.openDocument(room: room.id, name: "big")
        try await session.waitUntilSynced()
        try await session.insert("kept. ", at: 0)
        let watcher = try await alice.openDocument(room: room.id, name: "big")
        await waitFor(watcher) { $0.text == "kept. " }

        // One edit over the server's 1 MiB update limit: the server closes with 1009, and
        // every reconnect would send the same edit again.
        let connectsBefore = network.connects
        try await session.insert(String(repeating: "x", count: 1_100_000), at: 6)
        let closed = await waitFor(session) { if case .closed = $0.state { true } else { false } }
        guard case .closed(let reason)? = closed?.state else {
            Issue.record("expected a closed session, got \(String(describing: closed?.state))")
            return
        }
        #expect(reason.contains("too large"), "\(reason)")
        #expect(network.connects == connectsBefore)
        #expect(await session.count == 6 + 1_100_000)

        // The server kept what it had accepted and passed on nothing of the refused edit.
        let again = try await alice.openDocument(room: room.id, name: "big")
        try await again.waitUntilSynced()
        #expect(await again.text == "kept. ")
        #expect(await watcher.text == "kept. ")
        await again.close()
        await watcher.close()
        await alice.close()
        await server.stop()
    }

    @Test func malformedServerMessagesLeaveTheReplicaAsItWas() async throws {
        let transport = ScriptedTransport()
        let session = DocumentSession(
            url: "ws://scripted/v1/docs/d/ws", tokenProvider: StaticTokenProvider("t"),
            presence: DocumentPresence(name: "alice"), transport: transport, clientID: 1)
        await session.start()
        await transport.waitForConnection()
        transport.push(YSyncMessage.syncStep1(stateVector: [0]).encode())
        transport.push(YSyncMessage.syncStep2(update: serverUpdate(inserting: "hello", client: 9)).encode())
        try await session.waitUntilSynced()
        #expect(await session.text == "hello")

        // Garbage, a truncated message, an update with a wrong length, and an unknown content type.
        var valid = serverUpdate(inserting: " world", client: 9, after: "hello")
        let bad: [[UInt8]] = [
            [0xff, 0xff, 0xff],
            Array(YSyncMessage.update(valid).encode().dropLast(3)),
            YSyncMessage.update(Array(valid.dropLast(2))).encode(),
            YSyncMessage.update(corruptContentType(valid)).encode()
        ]
        for message in bad { transport.push(message) }
        await waitFor(session) { $0.rejectedMessages == bad.count }
        #expect(await session.text == "hello")
        #expect(await session.connectionState == .synced)

        // The replica still works: the valid update applies, and local edits go out.
        transport.push(YSyncMessage.update(valid).encode())
        await waitFor(session) { $0.text == "hello world" }
        try await session.insert("!", at: 11)
        #expect(await session.text == "hello world!")
        let updates = transport.sent.compactMap { message -> [UInt8]? in
            if case .update(let update)? = message { return update }
            return nil
        }
        var check = TextDocument(clientID: 50)
        valid = serverUpdate(inserting: "hello world", client: 9)
        try check.applyUpdate(valid)
        for update in updates { try check.applyUpdate(update) }
        #expect(check.text == "hello world!")
        await session.close()
    }
}

/// Word edits that read the text and change it in one step on the session's actor, so no
/// remote update can come in between.
extension DocumentSession {
    /// Deletes the first word and its space.
    func deleteFirstWord() throws(ParleyError) {
        let scalars = Array(text.unicodeScalars)
        guard let space = scalars.firstIndex(of: " ") else { return }
        try delete(at: 0, count: space + 1)
    }

    /// Inserts `word` at the start or right after a space, the boundary chosen by `choice`.
    func insert(_ word: String, atBoundary choice: UInt64) throws(ParleyError) {
        var boundaries = [0]
        for (offset, scalar) in text.unicodeScalars.enumerated() where scalar == " " { boundaries.append(offset + 1) }
        try insert(word, at: boundaries[Int(choice % UInt64(boundaries.count))])
    }
}

/// An update from another client: `text` inserted after `existing` (typed by the same client).
func serverUpdate(inserting text: String, client: UInt64, after existing: String = "") -> [UInt8] {
    var document = TextDocument(clientID: client)
    if !existing.isEmpty {
        try? document.insert(existing, at: 0)
        _ = document.takeLocalUpdate()
    }
    try? document.insert(text, at: document.count)
    return document.takeLocalUpdate() ?? []
}

/// The update with its first struct's info byte replaced by an unknown content type.
func corruptContentType(_ update: [UInt8]) -> [UInt8] {
    // Layout: structs-groups count, struct count, client, clock, then the info byte.
    var bytes = update
    bytes[4] = (bytes[4] & 0b1110_0000) | 0x1f
    return bytes
}

/// A small deterministic generator (SplitMix64) so the concurrent-edit test is repeatable.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
