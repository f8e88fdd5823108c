import Testing

@testable import ParleyStore

@Suite("Conformance: notification settings")
struct NotificationSettingsConformanceTests {
    @Test(arguments: TestEngine.available)
    func levelsArePerMemberAndRoomAndGoWithTheMembership(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", kind: .private, creator: "alice", members: ["bob", "carol"])
            let other = try await store.makeRoom("a", kind: .private, creator: "alice", members: ["bob"])
            #expect(try await store.notificationLevel(app: "a", room: room.id, user: "bob") == .all)
            try await store.setNotificationLevel(app: "a", room: room.id, user: "bob", level: .mentions)
            try await store.setNotificationLevel(app: "a", room: room.id, user: "carol", level: .none)
            try await store.setNotificationLevel(app: "a", room: room.id, user: "carol", level: .mentions)
            #expect(try await store.notificationLevel(app: "a", room: room.id, user: "bob") == .mentions)
            #expect(try await store.notificationLevels(app: "a", room: room.id) == ["bob": .mentions, "carol": .mentions])
            #expect(try await store.notificationLevels(app: "a", room: other.id).isEmpty, "per room")

            // Back to the default keeps no row.
            try await store.setNotificationLevel(app: "a", room: room.id, user: "carol", level: .all)
            #expect(try await store.notificationLevels(app: "a", room: room.id) == ["bob": .mentions])

            // Leaving forgets it: a member who rejoins starts from the default.
            #expect(try await store.removeMember(app: "a", room: room.id, user: "bob"))
            #expect(try await store.notificationLevels(app: "a", room: room.id).isEmpty)
            _ = try await store.addMember(app: "a", room: room.id, user: "bob", role: .member)
            #expect(try await store.notificationLevel(app: "a", room: room.id, user: "bob") == .all)

            await expectStoreError(.notMember) {
                try await store.setNotificationLevel(app: "a", room: other.id, user: "carol", level: .none)
            }
            await expectStoreError(.notMember) { try await store.notificationLevel(app: "a", room: "nowhere", user: "bob") }

            // Deleting the room takes its settings along.
            try await store.setNotificationLevel(app: "a", room: other.id, user: "bob", level: .none)
            _ = try await store.deleteRoom(app: "a", id: other.id)
            let rows = try await store.database.read { context in
                try context.query("SELECT count(*) FROM notification_settings WHERE room_id = $1", [.text(other.id)]) { $0.int64(0) }
            }
            #expect(rows == [0])
        }
    }
}
