import Testing

@testable import ParleyStore

@Suite("Conformance: documents")
struct DocsConformanceTests {
    @Test(arguments: TestEngine.available)
    func roomAndAccessListDocuments(_ engine: TestEngine) async throws {
        try await withStore(engine) { chat in
            let store = SQLDocumentStore(database: chat.database)
            for id in ["alice", "bob"] { try await chat.makeUser("a", id) }
            let room = try await chat.makeRoom("a", creator: "alice", members: ["bob"])

            let owned = try await store.createDocument(app: "a", NewDocument(name: "notes", ownerRoomID: room.id, createdBy: "alice"))
            #expect(owned.ownerRoomID == room.id && owned.accessList.isEmpty)
            let listed = try await store.createDocument(
                app: "a", NewDocument(id: "plan", name: "notes", accessList: ["bob", "bob"], createdBy: "alice"))
            #expect(listed.accessList == ["alice", "bob"], "the creator joins, duplicates collapse")
            #expect(try await store.document(app: "a", id: "plan") == listed)
            #expect(try await store.document(app: "a", id: owned.id) == owned)

            await expectStoreError(.alreadyExists) {
                try await store.createDocument(app: "a", NewDocument(name: "notes", ownerRoomID: room.id, createdBy: "bob"))
            }
            await expectStoreError(.alreadyExists) {
                try await store.createDocument(app: "a", NewDocument(id: "plan", name: "other", createdBy: "bob"))
            }
            await expectStoreError(.notFound) {
                try await store.createDocument(app: "a", NewDocument(name: "x", ownerRoomID: "no-such-room", createdBy: "bob"))
            }
            await expectStoreError(.invalidArgument) { try await store.createDocument(app: "a", NewDocument(name: "", createdBy: "bob")) }
            await expectStoreError(.notFound) { try await store.document(app: "b", id: "plan") }

            #expect(try await store.document(app: "a", named: "notes", ownerRoom: room.id)?.id == owned.id)
            #expect(try await store.document(app: "a", named: "notes", ownerRoom: nil)?.id == "plan")
            #expect(try await store.document(app: "a", named: "missing", ownerRoom: nil) == nil)
            #expect(try await store.documents(app: "a", ownerRoom: room.id, after: nil, limit: 10).map(\.id) == [owned.id])
            #expect(try await store.documents(app: "a", accessibleTo: "bob", after: nil, limit: 10).map(\.id) == ["plan"])

            let changed = try await store.setAccessList(app: "a", id: "plan", users: ["carol"])
            #expect(changed.accessList == ["carol"])
            #expect(try await store.documents(app: "a", accessibleTo: "bob", after: nil, limit: 10).isEmpty)
            #expect(try await store.document(app: "a", id: "plan").accessList == ["carol"])

            #expect(try await store.deleteDocument(app: "a", id: "plan").id == "plan")
            await expectStoreError(.notFound) { try await store.content(app: "a", id: "plan") }
            await expectStoreError(.notFound) { try await store.deleteDocument(app: "a", id: "plan") }

            _ = try await store.appendUpdates(app: "a", id: owned.id, [[1, 2, 3]], snapshot: nil)
            _ = try await chat.deleteRoom(app: "a", id: room.id)
            await expectStoreError(.notFound) { try await store.document(app: "a", id: owned.id) }
            await expectStoreError(.notFound) { try await store.content(app: "a", id: owned.id) }
        }
    }

    @Test(arguments: TestEngine.available)
    func logAppendsAndCompactsAtomically(_ engine: TestEngine) async throws {
        try await withStore(engine) { chat in
            let store = SQLDocumentStore(database: chat.database)
            let doc = try await store.createDocument(app: "a", NewDocument(name: "d", createdBy: "alice"))
            #expect(
                try await store.content(app: "a", id: doc.id) == DocumentContent(snapshot: nil, snapshotSeq: 0, updates: [], lastSeq: 0))

            let binary: [UInt8] = [0, 0xFF, 0x80, 0x5C, 0x78, 0]  // NUL, high bytes, "\x" must survive both engines
            var result = try await store.appendUpdates(app: "a", id: doc.id, [[1], binary], snapshot: nil)
            #expect(result == DocumentAppendResult(lastSeq: 2, logCount: 2, logBytes: 7, snapshotBytes: 0))
            result = try await store.appendUpdates(app: "a", id: doc.id, [[3, 3]], snapshot: nil)
            #expect(result.lastSeq == 3 && result.logCount == 3 && result.logBytes == 9)
            #expect(try await store.content(app: "a", id: doc.id).updates == [[1], binary, [3, 3]])

            result = try await store.compact(app: "a", id: doc.id, snapshot: [9, 9, 9], throughSeq: 2)
            #expect(result == DocumentAppendResult(lastSeq: 3, logCount: 1, logBytes: 2, snapshotBytes: 3))
            #expect(
                try await store.content(app: "a", id: doc.id)
                    == DocumentContent(snapshot: [9, 9, 9], snapshotSeq: 2, updates: [[3, 3]], lastSeq: 3))
            await expectStoreError(.conflict) { try await store.compact(app: "a", id: doc.id, snapshot: [0], throughSeq: 4) }
            await expectStoreError(.conflict) { try await store.compact(app: "a", id: doc.id, snapshot: [0], throughSeq: 1) }

            result = try await store.appendUpdates(app: "a", id: doc.id, [[4], [5]], snapshot: [7, 7])
            #expect(result == DocumentAppendResult(lastSeq: 5, logCount: 0, logBytes: 0, snapshotBytes: 2))
            #expect(
                try await store.content(app: "a", id: doc.id)
                    == DocumentContent(snapshot: [7, 7], snapshotSeq: 5, updates: [], lastSeq: 5))
            result = try await store.appendUpdates(app: "a", id: doc.id, [[6]], snapshot: nil)
            #expect(result.lastSeq == 6 && result.logCount == 1)
            await expectStoreError(.notFound) { try await store.appendUpdates(app: "a", id: "ghost", [[1]], snapshot: nil) }
            await expectStoreError(.notFound) { try await store.appendUpdates(app: "b", id: doc.id, [[1]], snapshot: nil) }
        }
    }

    @Test(arguments: TestEngine.available)
    func contentSurvivesReopening(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let first = try await database.open()
        let writing = SQLDocumentStore(database: first.database)
        let doc = try await writing.createDocument(app: "a", NewDocument(name: "d", createdBy: "alice"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { _ = try await writing.appendUpdates(app: "a", id: doc.id, [[UInt8(index)]], snapshot: nil) }
            }
            try await group.waitForAll()
        }
        await first.close()

        let chat = try await database.open()
        let store = SQLDocumentStore(database: chat.database)
        let content = try await store.content(app: "a", id: doc.id)
        #expect(content.lastSeq == 20)
        #expect(content.updates.map { $0[0] }.sorted() == (0..<20).map(UInt8.init))
        await chat.close()
    }
}
