import Testing

@testable import ParleyKit

/// Message search against a real `parley serve --dev` in this process: what was sent is found
/// with its highlights, only in the caller's rooms (or the one asked for), paged by offset,
/// never deleted or blocked users' messages, and bad queries fail with the server's codes.
@Suite(.serialized) struct SearchLoopbackTests {
    /// Alice and Bob share "lunch", Alice and Carol "trips"; Bob and Carol have "secret",
    /// which Alice is not in.
    struct World {
        let server: LoopbackServer
        let alice: ParleyClient, bob: ParleyClient, carol: ParleyClient
        let lunch: ChatRoom, trips: ChatRoom, secret: ChatRoom

        static func make() async throws -> World {
            let server = try await LoopbackServer.start()
            let alice = try await server.client("Alice"), bob = try await server.client("Bob"), carol = try await server.client("Carol")
            let aliceID = try await alice.userID(), bobID = try await bob.userID(), carolID = try await carol.userID()
            return World(
                server: server, alice: alice, bob: bob, carol: carol,
                lunch: try await alice.createRoom(name: "lunch", memberIDs: [bobID]),
                trips: try await alice.createRoom(name: "trips", memberIDs: [carolID]),
                secret: try await bob.createRoom(name: "secret", memberIDs: [carolID]))
        }

        func close() async {
            for client in [alice, bob, carol] { await client.close() }
            await server.stop()
        }
    }

    @discardableResult
    func sent(_ text: String, by client: ParleyClient, in room: ChatRoom) async throws -> ChatMessage {
        try #require(try await client.send(text: text, to: room.id).message)
    }

    @Test(.timeLimit(.minutes(1))) func findsSentMessagesWithHighlightsOnlyInMyRooms() async throws {
        let world = try await World.make()
        let pizza = try await sent("Pizza for lunch today?", by: world.bob, in: world.lunch)
        let crepes = try await sent("Crêpes in Lyon, LUNCH at noon", by: world.carol, in: world.trips)
        try await sent("lunch plans without Alice", by: world.bob, in: world.secret)
        try await sent("nothing to see here", by: world.alice, in: world.lunch)

        let page = try await world.alice.search("lunch")
        #expect(Set(page.results.map(\.message.id)) == [pizza.id, crepes.id], "the secret room's message is not Alice's to see")
        #expect(page.nextOffset == nil)
        for result in page.results {
            #expect(result.matchedTexts.map { $0.lowercased() } == ["lunch"])
            #expect(result.highlights.allSatisfy { $0.part == 0 })
        }
        let pizzaHit = try #require(page.results.first { $0.message.id == pizza.id })
        #expect(pizzaHit.message == pizza, "the same message model as history")
        #expect(pizzaHit.highlights == [SearchHighlight(part: 0, start: 10, end: 15)])
        #expect(pizzaHit.score > 0)

        // One room only, by the room's own id; the last word as a prefix; diacritics folded.
        let inTrips = try await world.alice.search("crepes lyo", in: world.trips.id)
        #expect(inTrips.results.map(\.message.id) == [crepes.id])
        #expect(inTrips.results.first?.matchedTexts == ["Crêpes", "Lyon"])
        #expect(try await world.alice.search("pizza", in: world.trips.id).results.isEmpty)
        #expect(try await world.carol.search("lunch").results.count == 2, "Carol sees trips and secret")
        await world.close()
    }

    @Test(.timeLimit(.minutes(1))) func emojiAndNonLatinTextAreFoundAndHighlighted() async throws {
        let world = try await World.make()
        let party = try await sent("🎉 party at 東京 tonight", by: world.bob, in: world.lunch)
        let found = try await world.alice.search("🎉")
        #expect(found.results.map(\.message.id) == [party.id])
        #expect(found.results.first?.matchedTexts == ["🎉"])
        let tokyo = try await world.alice.search("東京 party")
        #expect(tokyo.results.map(\.message.id) == [party.id])
        #expect(Set(tokyo.results.first?.matchedTexts ?? []) == ["東", "京", "party"])
        // Offsets count UTF-16: the emoji is two units, so "party" starts at 3.
        #expect(tokyo.results.first?.highlights.contains(SearchHighlight(part: 0, start: 3, end: 8)) == true)
        await world.close()
    }

    @Test(.timeLimit(.minutes(1))) func pagesByOffsetUntilNoNextOffset() async throws {
        let world = try await World.make()
        var ids: Set<Int64> = []
        for number in 1...5 { ids.insert(try await sent("standup note \(number)", by: world.bob, in: world.lunch).id) }
        var seen: [Int64] = []
        var offset: Int? = 0
        var pages = 0
        while let next = offset {
            let page = try await world.alice.search("standup", limit: 2, offset: next)
            seen += page.results.map(\.message.id)
            #expect(page.results.count == (page.nextOffset == nil ? 1 : 2))
            offset = page.nextOffset
            pages += 1
        }
        #expect(pages == 3)
        #expect(seen.count == 5 && Set(seen) == ids, "every message once across the pages")
        await world.close()
    }

    @Test(.timeLimit(.minutes(1))) func deletedAndBlockedUsersMessagesAreNotFound() async throws {
        let world = try await World.make()
        let gone = try await sent("quarterly report draft", by: world.alice, in: world.lunch)
        let bobs = try await sent("quarterly numbers look good", by: world.bob, in: world.lunch)
        #expect(Set(try await world.alice.search("quarterly").results.map(\.message.id)) == [gone.id, bobs.id])
        try await world.alice.delete(messageID: gone.id, in: world.lunch.id)
        #expect(try await world.alice.search("quarterly").results.map(\.message.id) == [bobs.id])
        try await world.alice.block(try await world.bob.userID())
        #expect(try await world.alice.search("quarterly").results.isEmpty)
        await world.close()
    }

    @Test(.timeLimit(.minutes(1))) func badQueriesAndForeignRoomsFailWithTheServersCodes() async throws {
        let world = try await World.make()
        await expectError(.invalidArgument, status: nil) { try await world.alice.search("   ") }
        await expectError(.server, status: 400, serverCode: "invalid_parameter") {
            try await world.alice.search("one two three four five six seven eight nine")
        }
        await expectError(.server, status: 400, serverCode: "invalid_parameter") { try await world.alice.search("lunch", limit: 51) }
        await expectError(.server, status: 400, serverCode: "invalid_parameter") { try await world.alice.search("lunch", offset: 201) }
        await expectError(.server, status: 403) { try await world.alice.search("lunch", in: world.secret.id) }
        await expectError(.server, status: 404) { try await world.alice.search("lunch", in: "no-such-room") }
        await world.close()
    }

    func expectError(
        _ code: ParleyError.Code, status: Int?, serverCode: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> SearchResultPage
    ) async {
        do {
            _ = try await body()
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch {
            guard let error = error as? ParleyError else {
                Issue.record("not a ParleyError: \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(error.code == code && error.status == status, "\(error)", sourceLocation: sourceLocation)
            if let serverCode { #expect(error.serverCode == serverCode, "\(error)", sourceLocation: sourceLocation) }
        }
    }
}
