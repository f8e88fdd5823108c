import ParleyText
import Testing

@testable import ParleyKit

/// Named texts, maps and arrays in one document, between two sessions on a real server on
/// loopback: a title, a body and a checklist, edited on both sides, converge; change events
/// name the roots that changed.
@Suite(.timeLimit(.minutes(2)))
struct DocumentRootsTests {
    @Test func titleBodyAndChecklistConverge() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice")
        let bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "lists", memberIDs: [try await bob.userID()])
        let a = try await alice.openDocument(room: room.id, name: "groceries")
        let b = try await bob.openDocument(room: room.id, name: "groceries")
        try await a.waitUntilSynced()
        try await b.waitUntilSynced()
        let bobChanges = b.changes()

        try await a.insert("Groceries ✓", at: 0, inText: "title")
        try await a.insert("Milk and eggs", at: 0, inText: "body")
        try await a.delete(at: 4, count: 4, inText: "body")
        try await a.setValue(.string("alice"), forKey: "owner", inMap: "meta")
        try await a.setValue(
            .object(["due": .integer(3), "tags": .array([.string("food"), .number(2.5), .null])]),
            forKey: "extra", inMap: "meta")
        try await a.setValue(.bool(true), forKey: "gone", inMap: "meta")
        try await a.removeValue(forKey: "gone", inMap: "meta")
        try await a.append([.object(["item": .string("milk"), "done": .bool(false)])], toArray: "checklist")
        try await a.append([.string("eggs"), .integer(42)], toArray: "checklist")
        try await a.remove(at: 2, fromArray: "checklist")

        // Bob's first change event comes from the server and names a root Alice edited.
        var iterator = bobChanges.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(!first.isLocal && !first.roots.isDisjoint(with: ["title", "body", "meta", "checklist"]))

        let expectedChecklist: [DocumentValue] = [.object(["item": .string("milk"), "done": .bool(false)]), .string("eggs")]
        #expect(await waitUntil { await b.array(named: "checklist") == expectedChecklist })
        #expect(await b.text(named: "title") == "Groceries ✓")
        #expect(await b.text(named: "body") == "Milk eggs")
        #expect(
            await b.map(named: "meta") == [
                "owner": .string("alice"),
                "extra": .object(["due": .integer(3), "tags": .array([.string("food"), .number(2.5), .null])])
            ])

        // Bob edits every root; Alice gets it all, and the plain text API is untouched.
        try await b.insert(" (today)", at: await b.count(ofText: "title"), inText: "title")
        try await b.setValue(.string("bob"), forKey: "owner", inMap: "meta")
        try await b.insert([.string("bread")], at: 0, inArray: "checklist")
        try await b.insert("plain", at: 0)
        #expect(
            await waitUntil {
                let text = await a.text
                let checklist = await a.array(named: "checklist")
                return text == "plain" && checklist.count == 3
            })
        #expect(await a.text(named: "title") == "Groceries ✓ (today)")
        #expect(await a.map(named: "meta")["owner"] == .string("bob"))
        #expect(await a.array(named: "checklist").first == .string("bread"))

        // Positions outside a root are refused and change nothing.
        await #expect(throws: ParleyError.self) { try await a.remove(at: 5, fromArray: "checklist") }
        await #expect(throws: ParleyError.self) { try await a.insert("x", at: 99, inText: "title") }
        #expect(await a.array(named: "checklist").count == 3)

        await a.close()
        await b.close()
        await alice.close()
        await bob.close()
        await server.stop()
    }
}

/// Polls `condition` every 20 ms for up to 10 s; whether it held.
func waitUntil(_ condition: @Sendable () async -> Bool) async -> Bool {
    for _ in 0..<500 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return false
}
