import Testing

@testable import ParleyStore

/// What deletions leave behind: retired room ids and user token cutoffs, on both engines.
@Suite("Conformance: retired room ids and token cutoffs")
struct RevocationConformanceTests {
    @Test(arguments: TestEngine.available)
    func deletedRoomIDsAreNeverReused(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            _ = try await store.createRoom(app: "a", NewRoom(id: "general", kind: .public, creatorID: "alice"))
            _ = try await store.deleteRoom(app: "a", id: "general")
            await expectStoreError(.retired) {
                try await store.createRoom(app: "a", NewRoom(id: "general", kind: .private, creatorID: "alice"))
            }
            await expectStoreError(.notFound) { try await store.room(app: "a", id: "general") }
            // The refusal left nothing behind, and other apps keep their own namespace.
            #expect(try await store.roomSummaries(app: "a", user: "alice", limit: 10).isEmpty)
            try await store.makeUser("b", "alice")
            #expect(try await store.createRoom(app: "b", NewRoom(id: "general", kind: .public, creatorID: "alice")).id == "general")
            // A generated id of a deleted room is retired too.
            let generated = try await store.makeRoom("a", creator: "alice")
            _ = try await store.deleteRoom(app: "a", id: generated.id)
            await expectStoreError(.retired) { try await store.createRoom(app: "a", NewRoom(id: generated.id, kind: .public)) }
        }
    }

    @Test(arguments: TestEngine.available)
    func retiredRoomIDsSurviveReopening(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let first = try await database.open()
        try await first.makeUser("a", "alice")
        _ = try await first.createRoom(app: "a", NewRoom(id: "kept", kind: .public, creatorID: "alice"))
        _ = try await first.deleteRoom(app: "a", id: "kept")
        await first.close()
        let second = try await database.open()
        await expectStoreError(.retired) { try await second.createRoom(app: "a", NewRoom(id: "kept", kind: .public)) }
        await second.close()
    }

    @Test(arguments: TestEngine.available)
    func deletingAUserSetsItsTokenCutoff(_ engine: TestEngine) async throws {
        let clock = TickingClock()
        try await withStore(engine, clock: clock.storeClock) { store in
            try await store.makeUser("a", "alice")
            try await store.makeUser("a", "bob")
            #expect(try await store.tokensValidAfter(app: "a", user: "alice") == nil)
            #expect(try await store.tokensValidAfter(app: "a", user: "nobody") == nil)
            let before = clock.storeClock.now()
            _ = try await store.deleteUser(app: "a", id: "alice")
            let cutoff = try #require(try await store.tokensValidAfter(app: "a", user: "alice"))
            #expect(cutoff > before)
            #expect(try await store.tokensValidAfter(app: "a", user: "bob") == nil)
            #expect(try await store.tokensValidAfter(app: "b", user: "alice") == nil)
            // Creating the id again keeps the cutoff; deleting it again moves the cutoff on.
            try await store.makeUser("a", "alice")
            #expect(try await store.tokensValidAfter(app: "a", user: "alice") == cutoff)
            _ = try await store.deleteUser(app: "a", id: "alice")
            #expect(try #require(try await store.tokensValidAfter(app: "a", user: "alice")) > cutoff)
            // Deleting an unknown user changes nothing.
            await expectStoreError(.notFound) { try await store.deleteUser(app: "a", id: "ghost") }
            #expect(try await store.tokensValidAfter(app: "a", user: "ghost") == nil)
        }
    }
}
