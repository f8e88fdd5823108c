import Testing

@testable import ParleyStore

/// A moderator's delete and a role change write their audit entry in the change's own
/// transaction: the entry exists exactly when the change happened.
@Suite("Conformance: audited changes")
struct AuditedChangeConformanceTests {
    @Test(arguments: TestEngine.available)
    func aDeleteRecordsItsAuditEntryOnlyWhenItDeletes(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let sent = try await store.send("a", room.id, from: "bob", "hello").message
            let entry = NewAuditEntry(action: "message_deleted", actorID: "alice", targetUserID: "bob", targetMessageID: sent.id)

            let deleted = try await store.deleteMessage(app: "a", room: room.id, id: sent.id, audit: entry)
            #expect(deleted.isDeleted)
            let log = try await store.auditLog(app: "a", room: room.id, before: nil, limit: 10)
            #expect(log.map(\.record) == [entry])

            _ = try await store.deleteMessage(app: "a", room: room.id, id: sent.id, audit: entry)
            #expect(try await store.auditLog(app: "a", room: room.id, before: nil, limit: 10).count == 1, "a second delete is a no-op")

            let own = try await store.send("a", room.id, from: "bob", "mine").message
            _ = try await store.deleteMessage(app: "a", room: room.id, id: own.id, audit: nil)
            #expect(try await store.auditLog(app: "a", room: room.id, before: nil, limit: 10).count == 1)
        }
    }

    @Test(arguments: TestEngine.available)
    func aRoleChangeRecordsTheRoleItReplacedOnlyWhenItChanges(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let audit: @Sendable (MemberRole) -> NewAuditEntry = { from in
                NewAuditEntry(action: "role_changed", actorID: "alice", targetUserID: "bob", detail: from.rawValue)
            }

            let change = try await store.setRole(app: "a", room: room.id, user: "bob", role: .moderator, audit: audit)
            #expect(change.changed)
            let log = try await store.auditLog(app: "a", room: room.id, before: nil, limit: 10)
            #expect(log.map(\.record) == [audit(.member)], "the role before the change, read in its transaction")

            let again = try await store.setRole(app: "a", room: room.id, user: "bob", role: .moderator, audit: audit)
            #expect(!again.changed)
            #expect(try await store.auditLog(app: "a", room: room.id, before: nil, limit: 10).count == 1, "a no-op records nothing")

            let owner = try #require(try await store.membership(app: "a", room: room.id, user: "alice")).role
            await expectStoreError(.lastAdmin) {
                try await store.setRole(app: "a", room: room.id, user: "alice", role: .member, audit: { _ in audit(owner) })
            }
            #expect(
                try await store.auditLog(app: "a", room: room.id, before: nil, limit: 10).count == 1, "a refused change records nothing")
        }
    }
}
