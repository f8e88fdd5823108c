import Testing

@testable import ParleyStore

@Suite("Conformance: users")
struct UserConformanceTests {
    @Test(arguments: TestEngine.available)
    func createGetUpdateListDelete(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let created = try await store.createUser(
                app: "a",
                NewUser(
                    id: "alice", name: "Alice", avatarURL: "https://x/a.png",
                    customData: #"{"team":"blue"}"#))
            #expect(created.name == "Alice")
            #expect(try await store.user(app: "a", id: "alice") == created)

            let updated = try await store.updateUser(
                app: "a", id: "alice",
                UserPatch(name: .set("Alice B"), avatarURL: .set(nil)))
            #expect(updated.name == "Alice B")
            #expect(updated.avatarURL == nil)
            #expect(updated.customData == .object(["team": .string("blue")]), "a kept field must not change")
            #expect(try await store.user(app: "a", id: "alice") == updated)

            for id in ["bob", "carol", "dave"] { try await store.makeUser("a", id) }
            let firstPage = try await store.users(app: "a", after: nil, limit: 2)
            #expect(firstPage.map(\.id) == ["alice", "bob"])
            let secondPage = try await store.users(app: "a", after: "bob", limit: 10)
            #expect(secondPage.map(\.id) == ["carol", "dave"])

            let deleted = try await store.deleteUser(app: "a", id: "bob")
            #expect(deleted.id == "bob")
            await expectStoreError(.notFound) { try await store.user(app: "a", id: "bob") }
            await expectStoreError(.notFound) { try await store.deleteUser(app: "a", id: "bob") }
        }
    }

    @Test(arguments: TestEngine.available)
    func duplicateAndUnknownUsers(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            await expectStoreError(.alreadyExists) { try await store.makeUser("a", "alice") }
            await expectStoreError(.notFound) { try await store.user(app: "a", id: "nobody") }
            await expectStoreError(.notFound) { try await store.updateUser(app: "a", id: "nobody", UserPatch(name: .set("x"))) }
        }
    }

    @Test(arguments: TestEngine.available)
    func appsAreIsolated(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            _ = try await store.createUser(app: "a", NewUser(id: "alice", name: "Alice of A"))
            await expectStoreError(.notFound) { try await store.user(app: "b", id: "alice") }
            let other = try await store.createUser(app: "b", NewUser(id: "alice", name: "Alice of B"))
            #expect(other.name == "Alice of B")
            #expect(try await store.user(app: "a", id: "alice").name == "Alice of A")
            #expect(try await store.users(app: "b", after: nil, limit: 10).map(\.name) == ["Alice of B"])
        }
    }

    @Test(arguments: TestEngine.available)
    func customDataLimitAndEmptyFields(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let atLimit = "\"" + String(repeating: "x", count: 5 * 1024 - 2) + "\""
            let user = try await store.createUser(app: "a", NewUser(id: "big", name: "Big", customData: atLimit))
            #expect(
                try await store.user(app: "a", id: "big").customData == .string(String(repeating: "x", count: 5 * 1024 - 2)),
                "custom data at the limit is kept")
            let overLimit = atLimit + " "
            await expectStoreError(.invalidArgument) {
                try await store.createUser(app: "a", NewUser(id: "bigger", name: "B", customData: overLimit))
            }
            await expectStoreError(.invalidArgument) {
                try await store.updateUser(app: "a", id: user.id, UserPatch(customData: .set(overLimit)))
            }
            await expectStoreError(.invalidArgument) { try await store.createUser(app: "a", NewUser(id: "", name: "Empty")) }
            await expectStoreError(.invalidArgument) { try await store.createUser(app: "a", NewUser(id: "x", name: "")) }
            await expectStoreError(.notFound) { try await store.user(app: "a", id: "bigger") }
        }
    }

    @Test(arguments: TestEngine.available)
    func deletingAUserEndsMembershipsButKeepsMessages(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            try await store.makeUser("a", "bob")
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            try await store.send("a", room.id, from: "bob", "hi")
            _ = try await store.deleteUser(app: "a", id: "bob")
            #expect(try await store.room(app: "a", id: room.id).memberCount == 1)
            #expect(try await store.membership(app: "a", room: room.id, user: "bob") == nil)
            let history = try await store.history(app: "a", room: room.id, .latest())
            #expect(history.map(\.senderID) == ["bob"])
        }
    }
}
