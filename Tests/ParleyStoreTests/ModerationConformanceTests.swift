import Testing

@testable import ParleyStore

@Suite("Conformance: moderation")
struct ModerationConformanceTests {
    @Test(arguments: TestEngine.available)
    func migrationNineKeepsMembershipsAndTakesTheNewRoles(_ engine: TestEngine) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        try Self.buildVersionSeven(database.location)
        let store = try await database.open()
        let members = try await store.members(app: "a", room: "r", after: nil, limit: 10)
        #expect(members.map(\.userID) == ["alice", "bob"])
        #expect(members.map(\.role) == [.admin, .member])
        #expect(members.map(\.readSeq) == [0, 0])
        #expect(try await store.setRole(app: "a", room: "r", user: "bob", role: .moderator).membership.role == .moderator)
        #expect(try await store.setRole(app: "a", room: "r", user: "bob", role: .owner).membership.role == .owner)
        let byUser = try await store.database.read { context in
            try context.query("SELECT room_id FROM memberships WHERE app_id = $1 AND user_id = $2", [.text("a"), .text("bob")]) {
                $0.text(0)
            }
        }
        #expect(byUser == ["r"])
        #expect(try await store.moderation(app: "a", room: "r") == RoomModeration())
        await expectStoreError(.constraintViolation) {
            try await store.database.write { context in
                try context.execute("UPDATE memberships SET role = 'king' WHERE user_id = 'bob'")
            }
        }
        await store.close()
    }

    /// A database at schema 7 (every migration before moderation) with a room of two members.
    private static func buildVersionSeven(_ location: StoreLocation) throws {
        let connection: any SQLConnection =
            switch location {
            case .sqlite(let path): try SQLiteConnection(path: path, role: .writer(checkpointer: nil, syncedElsewhere: false))
            case .postgres(let url): try PostgresConnection(url: url)
            }
        let context = SQLContext(connection: connection, now: 1_000)
        try Migrator.migrate(context, migrations: Schema.migrations.filter { $0.version < 8 })
        try context.execute("INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ('a', 'alice', 'A', 1, 1)")
        try context.execute("INSERT INTO users (app_id, id, name, created_at, updated_at) VALUES ('a', 'bob', 'B', 1, 1)")
        try context.execute(
            "INSERT INTO rooms (app_id, id, kind, last_activity_at, member_count, created_at, updated_at) VALUES ('a', 'r', 'public', 1, 2, 1, 1)"
        )
        try context.execute(
            "INSERT INTO memberships (app_id, room_id, user_id, role, joined_at) VALUES ('a', 'r', 'alice', 'admin', 1), ('a', 'r', 'bob', 'member', 1)"
        )
    }

    @Test(arguments: TestEngine.available)
    func banRemovesTheMemberAndEveryActionIsAudited(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            let ban = RoomRestriction(roomID: room.id, userID: "bob", kind: .ban, until: nil, reason: "spam", actorID: "alice")
            #expect(try await store.restrict(app: "a", ban, audit: NewAuditEntry(action: "ban", actorID: "alice", targetUserID: "bob")))
            #expect(try await store.membership(app: "a", room: room.id, user: "bob") == nil)
            #expect(try await store.room(app: "a", id: room.id).memberCount == 2)
            let mute = RoomRestriction(roomID: room.id, userID: "carol", kind: .mute, until: 5_000, reason: nil, actorID: "alice")
            #expect(
                try await !store.restrict(app: "a", mute, audit: NewAuditEntry(action: "mute", actorID: "alice", targetUserID: "carol")))
            #expect(try await store.membership(app: "a", room: room.id, user: "carol") != nil, "a mute keeps the member")

            let state = try await store.moderation(app: "a", room: room.id)
            #expect(state.restrictions.map(\.userID) == ["bob", "carol"])
            #expect(state.active(.ban, user: "bob", at: 10_000) != nil)
            #expect(state.active(.mute, user: "carol", at: 4_999) != nil)
            #expect(state.active(.mute, user: "carol", at: 5_000) == nil, "a mute ends at its until")

            #expect(
                try await store.setSlowMode(
                    app: "a", room: room.id, seconds: 30, audit: NewAuditEntry(action: "slow_mode", actorID: "alice")) == 0)
            #expect(try await store.moderation(app: "a", room: room.id).slowModeSeconds == 30)
            #expect(
                try await store.liftRestriction(
                    app: "a", room: room.id, user: "bob", kind: .ban, audit: NewAuditEntry(action: "unban", actorID: "alice")))
            #expect(
                try await !store.liftRestriction(
                    app: "a", room: room.id, user: "bob", kind: .ban, audit: NewAuditEntry(action: "unban", actorID: "alice")))
            #expect(
                try await store.kick(
                    app: "a", room: room.id, user: "carol", audit: NewAuditEntry(action: "kick", actorID: nil, targetUserID: "carol")))
            #expect(try await !store.kick(app: "a", room: room.id, user: "carol", audit: NewAuditEntry(action: "kick", actorID: nil)))

            let log = try await store.auditLog(app: "a", room: room.id, before: nil, limit: 3)
            #expect(log.map(\.record.action) == ["kick", "unban", "slow_mode"], "newest first; the refused unban and kick left nothing")
            #expect(log[0].record.actorID == nil && log[0].record.targetUserID == "carol")
            let older = try await store.auditLog(app: "a", room: room.id, before: log.last?.id, limit: 10)
            #expect(older.map(\.record.action) == ["mute", "ban"])
            await expectStoreError(.notFound) { try await store.moderation(app: "a", room: "nope") }
            await expectStoreError(.notFound) { try await store.auditLog(app: "a", room: "nope", before: nil, limit: 5) }
        }
    }

    @Test(arguments: TestEngine.available)
    func banningTheLastAdminIsRefusedAsLeavingIs(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let ban = RoomRestriction(roomID: room.id, userID: "alice", kind: .ban, until: nil, reason: nil, actorID: nil)
            await expectStoreError(.lastAdmin) {
                try await store.restrict(app: "a", ban, audit: NewAuditEntry(action: "ban", actorID: nil))
            }
            #expect(try await store.moderation(app: "a", room: room.id).restrictions.isEmpty, "nothing of the refused ban stays")
            _ = try await store.setRole(app: "a", room: room.id, user: "bob", role: .owner)
            #expect(
                try await store.restrict(app: "a", ban, audit: NewAuditEntry(action: "ban", actorID: nil)), "an owner manages the room too")
        }
    }

    @Test(arguments: TestEngine.available)
    func flagsAreOnePerUserAndMessageAndResolve(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let sent = try await store.send("a", room.id, from: "alice", "rude")
            let first = try await store.flagMessage(app: "a", room: room.id, message: sent.message.id, flagger: "bob", reason: "rude")
            #expect(first.created && first.flag.reason == "rude" && first.flag.resolvedAt == nil)
            let again = try await store.flagMessage(app: "a", room: room.id, message: sent.message.id, flagger: "bob", reason: "x")
            #expect(!again.created && again.flag.id == first.flag.id)
            await expectStoreError(.notFound) {
                try await store.flagMessage(app: "a", room: room.id, message: 999_999, flagger: "bob", reason: nil)
            }
            #expect(try await store.flags(app: "a", room: nil, state: .open, after: nil, limit: 10).map(\.id) == [first.flag.id])
            #expect(try await store.flags(app: "b", room: nil, state: .all, after: nil, limit: 10).isEmpty, "apps are isolated")
            let resolved = try await store.resolveFlag(
                app: "a", id: first.flag.id, resolution: "deleted", audit: NewAuditEntry(action: "flag_resolved", actorID: "alice"))
            #expect(resolved.resolvedBy == "alice" && resolved.resolution == "deleted" && resolved.resolvedAt != nil)
            #expect(try await store.flags(app: "a", room: room.id, state: .open, after: nil, limit: 10).isEmpty)
            #expect(try await store.flags(app: "a", room: room.id, state: .resolved, after: nil, limit: 10).count == 1)
            #expect(try await store.auditLog(app: "a", room: room.id, before: nil, limit: 5).map(\.record.action) == ["flag_resolved"])
            await expectStoreError(.notFound) { try await store.flag(app: "a", id: 999_999) }
        }
    }

    @Test(arguments: TestEngine.available)
    func blocksAreDirectedAndCheckedBothWays(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "ann")  // blocks need no user rows; this also makes the closure throwing
            #expect(try await store.block(app: "a", blocker: "ann", blocked: "bob"))
            #expect(try await !store.block(app: "a", blocker: "ann", blocked: "bob"))
            #expect(try await store.blockedUsers(app: "a", blocker: "ann") == ["bob"])
            #expect(try await store.blockedUsers(app: "a", blocker: "bob").isEmpty)
            #expect(try await store.blocks(app: "a", between: "bob", and: "ann"))
            #expect(try await !store.blocks(app: "b", between: "bob", and: "ann"))
            #expect(try await store.unblock(app: "a", blocker: "ann", blocked: "bob"))
            #expect(try await !store.blocks(app: "a", between: "ann", and: "bob"))
        }
    }
}
