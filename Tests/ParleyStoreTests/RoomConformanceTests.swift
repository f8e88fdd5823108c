import Testing

@testable import ParleyStore

@Suite("Conformance: rooms")
struct RoomConformanceTests {
    @Test(arguments: TestEngine.available)
    func createGetUpdateDelete(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.createRoom(
                app: "a",
                NewRoom(
                    kind: .private, name: "Plans", customData: #"{"t":1}"#,
                    creatorID: "alice", memberIDs: ["bob", "alice", "bob"]))
            #expect(room.kind == .private)
            #expect(room.memberCount == 2, "duplicates and the creator are counted once")
            #expect(room.lastSeq == 0)
            #expect(try await store.room(app: "a", id: room.id) == room)
            #expect(try await store.membership(app: "a", room: room.id, user: "alice")?.role == .admin)
            #expect(try await store.membership(app: "a", room: room.id, user: "bob")?.role == .member)

            let updated = try await store.updateRoom(
                app: "a", id: room.id,
                RoomPatch(name: .set("Plans 2"), customData: .set(nil), kind: .set(.public)))
            #expect(updated.name == "Plans 2")
            #expect(updated.customData == nil)
            #expect(updated.kind == .public)
            #expect(try await store.room(app: "a", id: room.id) == updated)

            let image = try await store.createAttachment(
                app: "a",
                NewAttachment(
                    id: "f1", roomID: room.id, uploaderID: "bob",
                    contentType: "image/png", size: 10, storagePath: "files/f1"))
            try await store.send("a", room.id, from: "bob", "bye")
            let deleted = try await store.deleteRoom(app: "a", id: room.id)
            #expect(deleted.memberIDs == ["alice", "bob"])
            #expect(deleted.attachments == [image])
            await expectStoreError(.notFound) { try await store.room(app: "a", id: room.id) }
            await expectStoreError(.notFound) { try await store.history(app: "a", room: room.id, .latest()) }
            await expectStoreError(.notFound) { try await store.attachment(app: "a", id: "f1") }
            #expect(try await store.roomSummaries(app: "a", user: "alice", limit: 10).isEmpty)
            await expectStoreError(.notFound) { try await store.deleteRoom(app: "a", id: room.id) }
        }
    }

    @Test(arguments: TestEngine.available)
    func chosenIDsAndInvalidRooms(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.createRoom(app: "a", NewRoom(id: "general", kind: .public, creatorID: "alice"))
            #expect(room.id == "general")
            await expectStoreError(.alreadyExists) { try await store.createRoom(app: "a", NewRoom(id: "general", kind: .public)) }
            await expectStoreError(.invalidArgument) { try await store.createRoom(app: "a", NewRoom(kind: .direct)) }
            await expectStoreError(.notFound) {
                try await store.createRoom(app: "a", NewRoom(id: "ghost-room", kind: .public, creatorID: "nobody"))
            }
            await expectStoreError(.notFound) { try await store.room(app: "a", id: "ghost-room") }
            await expectStoreError(.notFound) { try await store.room(app: "b", id: "general") }
            await expectStoreError(.invalidArgument) {
                try await store.updateRoom(app: "a", id: "general", RoomPatch(kind: .set(.direct)))
            }
            await expectStoreError(.notFound) { try await store.updateRoom(app: "a", id: "nope", RoomPatch(name: .set("x"))) }
        }
    }

    @Test(arguments: TestEngine.available)
    func publicRoomListing(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            for id in ["r1", "r2", "r3"] {
                _ = try await store.createRoom(app: "a", NewRoom(id: id, kind: .public, creatorID: "alice"))
            }
            _ = try await store.createRoom(app: "a", NewRoom(id: "secret", kind: .private, creatorID: "alice"))
            _ = try await store.createRoom(app: "b", NewRoom(id: "elsewhere", kind: .public))
            #expect(try await store.publicRooms(app: "a", after: nil, limit: 2).map(\.id) == ["r1", "r2"])
            #expect(try await store.publicRooms(app: "a", after: "r2", limit: 10).map(\.id) == ["r3"])
        }
    }

    @Test(arguments: TestEngine.available)
    func directRoomIsUniquePerPair(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            try await store.makeUser("a", "bob")
            let first = try await store.createDirectRoom(app: "a", between: "alice", and: "bob")
            #expect(first.created)
            #expect(first.room.kind == .direct)
            #expect(first.room.directUserIDs == ["alice", "bob"])
            #expect(first.room.memberCount == 2)
            let again = try await store.createDirectRoom(app: "a", between: "bob", and: "alice")
            #expect(!again.created)
            #expect(again.room.id == first.room.id)
            #expect(try await store.members(app: "a", room: first.room.id, after: nil, limit: 10).map(\.userID) == ["alice", "bob"])
            await expectStoreError(.conflict) {
                try await store.updateRoom(app: "a", id: first.room.id, RoomPatch(kind: .set(.public)))
            }
            await expectStoreError(.invalidArgument) { try await store.createDirectRoom(app: "a", between: "bob", and: "bob") }
            await expectStoreError(.notFound) { try await store.createDirectRoom(app: "a", between: "alice", and: "nobody") }
            #expect(try await store.publicRooms(app: "a", after: nil, limit: 10).isEmpty)

            _ = try await store.deleteUser(app: "a", id: "bob")
            #expect(try await store.room(app: "a", id: first.room.id).memberCount == 1)
            try await store.makeUser("a", "bob")
            let afterComeback = try await store.createDirectRoom(app: "a", between: "alice", and: "bob")
            #expect(afterComeback.room.id == first.room.id)
            #expect(afterComeback.room.memberCount == 2, "the pair is back in its room")
            #expect(try await store.membership(app: "a", room: first.room.id, user: "bob") != nil)
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentDirectRoomCreationYieldsOneRoom(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            try await store.makeUser("a", "bob")
            let results = try await withThrowingTaskGroup(of: DirectRoomResult.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        index.isMultiple(of: 2)
                            ? try await store.createDirectRoom(app: "a", between: "alice", and: "bob")
                            : try await store.createDirectRoom(app: "a", between: "bob", and: "alice")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(results.map(\.room.id)).count == 1)
            #expect(results.filter(\.created).count == 1)
            #expect(try await store.roomSummaries(app: "a", user: "alice", limit: 100).count == 1)
        }
    }
}
