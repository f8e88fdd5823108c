import Testing

@testable import ParleyStore

@Suite("Conformance: members")
struct MemberConformanceTests {
    @Test(arguments: TestEngine.available)
    func addRemoveRolesAndCounts(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice")
            try await store.send("a", room.id, from: "alice", "before bob")

            let added = try await store.addMember(app: "a", room: room.id, user: "bob", role: .member)
            #expect(added.changed)
            #expect(added.membership.readSeq == 1, "a new member starts with nothing unread")
            let again = try await store.addMember(app: "a", room: room.id, user: "bob", role: .admin)
            #expect(!again.changed)
            #expect(again.membership.role == .member, "adding an existing member keeps their role")
            _ = try await store.addMember(app: "a", room: room.id, user: "carol", role: .member)
            #expect(try await store.room(app: "a", id: room.id).memberCount == 3)

            let promoted = try await store.setRole(app: "a", room: room.id, user: "bob", role: .admin)
            #expect(promoted.changed)
            #expect(try await store.membership(app: "a", room: room.id, user: "bob")?.role == .admin)
            #expect(try await !store.setRole(app: "a", room: room.id, user: "bob", role: .admin).changed)

            #expect(try await store.members(app: "a", room: room.id, after: nil, limit: 2).map(\.userID) == ["alice", "bob"])
            #expect(try await store.members(app: "a", room: room.id, after: "bob", limit: 2).map(\.userID) == ["carol"])

            #expect(try await store.removeMember(app: "a", room: room.id, user: "carol"))
            #expect(try await !store.removeMember(app: "a", room: room.id, user: "carol"))
            #expect(try await store.room(app: "a", id: room.id).memberCount == 2)
            #expect(try await store.membership(app: "a", room: room.id, user: "carol") == nil)
        }
    }

    @Test(arguments: TestEngine.available)
    func unknownRoomsAndUsers(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            await expectStoreError(.notFound) { try await store.addMember(app: "a", room: room.id, user: "ghost", role: .member) }
            await expectStoreError(.notFound) { try await store.addMember(app: "a", room: "nope", user: "alice", role: .member) }
            await expectStoreError(.notFound) { try await store.removeMember(app: "a", room: "nope", user: "alice") }
            await expectStoreError(.notFound) { try await store.members(app: "a", room: "nope", after: nil, limit: 5) }
            await expectStoreError(.notMember) { try await store.setRole(app: "a", room: room.id, user: "ghost", role: .admin) }
            await expectStoreError(.notFound) { try await store.addMember(app: "b", room: room.id, user: "alice", role: .member) }
            #expect(try await store.room(app: "a", id: room.id).memberCount == 1, "failed adds must not be counted")
        }
    }
}
