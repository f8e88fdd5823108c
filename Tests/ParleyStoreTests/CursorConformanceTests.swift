import Testing

@testable import ParleyStore

@Suite("Conformance: read cursors and room lists")
struct CursorConformanceTests {
    @Test(arguments: TestEngine.available)
    func cursorsNeverMoveBackwards(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob", "mallory"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            for index in 1...5 { try await store.send("a", room.id, from: "alice", "m\(index)") }

            let forward = try await store.setReadCursor(app: "a", room: room.id, user: "bob", seq: 3)
            #expect(forward.moved)
            #expect(forward.cursor.seq == 3)
            #expect(forward.cursor.readAt != nil)
            let backward = try await store.setReadCursor(app: "a", room: room.id, user: "bob", seq: 2)
            #expect(!backward.moved)
            #expect(backward.cursor.seq == 3)
            let beyond = try await store.setReadCursor(app: "a", room: room.id, user: "bob", seq: 1_000)
            #expect(beyond.cursor.seq == 5, "a cursor never points past the room's last message")

            let cursors = try await store.readCursors(app: "a", room: room.id)
            #expect(cursors.map(\.userID) == ["alice", "bob"])
            #expect(cursors.map(\.seq) == [5, 5], "sending moves the sender's own cursor")

            await expectStoreError(.notMember) { try await store.setReadCursor(app: "a", room: room.id, user: "mallory", seq: 1) }
            await expectStoreError(.notFound) { try await store.setReadCursor(app: "a", room: "nope", user: "bob", seq: 1) }
            await expectStoreError(.notFound) { try await store.readCursors(app: "a", room: "nope") }
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentCursorUpdatesKeepTheMaximum(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            try await store.makeUser("a", "bob")
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            for index in 1...30 { try await store.send("a", room.id, from: "alice", "m\(index)") }
            let targets = (1...30).map { Int64($0) }.shuffled()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for target in targets {
                    group.addTask { _ = try await store.setReadCursor(app: "a", room: room.id, user: "bob", seq: target) }
                }
                try await group.waitForAll()
            }
            #expect(try await store.membership(app: "a", room: room.id, user: "bob")?.readSeq == 30)
        }
    }

    @Test(arguments: TestEngine.available)
    func roomListOrderUnreadAndPreview(_ engine: TestEngine) async throws {
        let clock = TickingClock()
        try await withStore(engine, clock: clock.storeClock) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let quiet = try await store.createRoom(app: "a", NewRoom(id: "quiet", kind: .public, creatorID: "alice"))
            let busy = try await store.createRoom(
                app: "a",
                NewRoom(
                    id: "busy", kind: .private, creatorID: "alice",
                    memberIDs: ["bob", "carol"]))
            let direct = try await store.createDirectRoom(app: "a", between: "alice", and: "bob").room

            try await store.send("a", busy.id, from: "bob", "b1")
            try await store.send("a", busy.id, from: "carol", "c1")
            let doomed = try await store.send("a", busy.id, from: "bob", "b2").message
            try await store.send("a", busy.id, from: "alice", "mine")  // moves alice's cursor to 4
            try await store.send("a", busy.id, from: "carol", "c2")
            try await store.send("a", busy.id, from: "bob", "b3")
            _ = try await store.deleteMessage(app: "a", room: busy.id, id: doomed.id)
            try await store.send("a", direct.id, from: "bob", "psst")

            let list = try await store.roomSummaries(app: "a", user: "alice", limit: 50)
            #expect(list.map(\.room.id) == [direct.id, busy.id, quiet.id], "most recent activity first")
            let busySummary = try #require(list.first { $0.room.id == busy.id })
            #expect(busySummary.unreadCount == 2, "c2 and b3 are unread; own and older messages are not")
            #expect(busySummary.room.memberCount == 3)
            #expect(busySummary.role == .admin)
            #expect(busySummary.lastMessage?.parts == [.text("b3")])
            #expect(busySummary.lastMessage?.seq == 6)
            #expect(list.first { $0.room.id == direct.id }?.unreadCount == 1)
            #expect(list.first { $0.room.id == quiet.id }?.lastMessage == nil)
            #expect(list.first { $0.room.id == quiet.id }?.unreadCount == 0)

            let bobs = try await store.roomSummary(app: "a", room: busy.id, user: "bob")
            #expect(bobs.readSeq == 6, "bob's own b3 moved his cursor to the end")
            #expect(bobs.unreadCount == 0)

            _ = try await store.setReadCursor(app: "a", room: busy.id, user: "alice", seq: 6)
            #expect(try await store.roomSummary(app: "a", room: busy.id, user: "alice").unreadCount == 0)
            let c3 = try await store.send("a", busy.id, from: "carol", "c3").message
            try await store.send("a", busy.id, from: "bob", "b4")
            #expect(try await store.roomSummary(app: "a", room: busy.id, user: "alice").unreadCount == 2)
            _ = try await store.deleteMessage(app: "a", room: busy.id, id: c3.id)
            #expect(
                try await store.roomSummary(app: "a", room: busy.id, user: "alice").unreadCount == 1,
                "a message deleted after the cursor is no longer unread")
            let carolsLatest = try await store.roomSummary(app: "a", room: busy.id, user: "carol")
            #expect(carolsLatest.unreadCount == 1, "carol's own c3 moved her cursor; bob's b4 after it is unread")

            let reordered = try await store.roomSummaries(app: "a", user: "alice", limit: 2)
            #expect(reordered.map(\.room.id) == [busy.id, direct.id], "a new message moves its room to the top; limit applies")
            #expect(reordered.first?.unreadCount == 1)
            await expectStoreError(.notMember) { try await store.roomSummary(app: "a", room: quiet.id, user: "bob") }
            await expectStoreError(.notFound) { try await store.roomSummary(app: "a", room: "nope", user: "bob") }
            #expect(try await store.roomSummaries(app: "b", user: "alice", limit: 50).isEmpty)
        }
    }

    @Test(arguments: TestEngine.available)
    func roomListScalesToManyRooms(_ engine: TestEngine) async throws {
        let clock = TickingClock()
        try await withStore(engine, clock: clock.storeClock) { store in
            try await store.makeUser("a", "alice")
            try await store.makeUser("a", "bob")
            var rooms: [Room] = []
            for _ in 0..<60 {
                rooms.append(try await store.makeRoom("a", creator: "bob", members: ["alice"]))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, room) in rooms.enumerated() {
                    group.addTask {
                        for message in 0..<(index % 4) { try await store.send("a", room.id, from: "bob", "m\(message)") }
                    }
                }
                try await group.waitForAll()
            }
            let list = try await store.roomSummaries(app: "a", user: "alice", limit: 500)
            #expect(list.count == 60)
            #expect(list.map(\.room.lastActivityAt) == list.map(\.room.lastActivityAt).sorted(by: >))
            let expected = Dictionary(uniqueKeysWithValues: rooms.enumerated().map { ($1.id, $0 % 4) })
            for summary in list {
                #expect(summary.unreadCount == expected[summary.room.id])
            }
        }
    }
}
