import Testing

@testable import ParleyKit

/// Search through ParleyKit against a real server in this process: model values back, the
/// highlights point at the matching text, paging by cursor, and only the caller's rooms.
@Suite(.serialized) struct SearchTests {
    @Test func searchReturnsHitsWithHighlightsAndPages() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "r", memberIDs: [try await bob.userID()])
        let secret = try await alice.createRoom(name: "alice only", memberIDs: [])
        _ = try await alice.send(text: "Grüße aus 東京 🎉", to: room.id)
        _ = try await alice.send(text: "nothing to see", to: room.id)
        _ = try await alice.send(text: "secret 東京 plans", to: secret.id)

        let page = try await bob.search("東京")
        #expect(page.hits.map(\.message.roomID) == [room.id], "Bob never sees Alice's own room")
        let hit = try #require(page.hits.first)
        #expect(hit.highlights.compactMap { $0.matched(in: hit.message.text) } == ["東京"])
        #expect(try await bob.search("GRUßE").hits.count == 1, "case and diacritics do not matter")
        #expect(try await bob.search("🎉", in: room.id).hits.count == 1)
        #expect(try await alice.search("東京").hits.count == 2)

        for index in 0..<3 { _ = try await alice.send(text: "paged \(index)", to: room.id) }
        let first = try await bob.search("paged", limit: 2)
        #expect(first.hits.count == 2)
        let cursor = try #require(first.nextCursor)
        let second = try await bob.search("paged", cursor: cursor, limit: 2)
        #expect(second.hits.count == 1 && second.nextCursor == nil)
        #expect(Set((first.hits + second.hits).map(\.message.id)).count == 3)
        do {
            _ = try await bob.search("zebra", in: secret.id)
            Issue.record("a non-member searched a private room")
        } catch {
            #expect(error.status == 403 && error.serverCode == "not_member")
        }
        await alice.close()
        await bob.close()
        await server.stop()
    }
}
