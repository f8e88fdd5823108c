import Testing

@testable import ParleyStore

/// Slow mode and notification quiet periods kept in the store (migration 15), so that two
/// stores on one database (two nodes) pace and notify a member as one; and the reactions of
/// blocked users that a blocker's view takes off the counts.
@Suite("Conformance: shared pacing")
struct PacingConformanceTests {
    /// Two stores on the database: two nodes on PostgreSQL; one store twice on SQLite, which one process owns.
    private static func withTwoNodes(_ engine: TestEngine, _ body: (SQLChatStore, SQLChatStore) async throws -> Void) async throws {
        let database = try engine.makeDatabase()
        defer { database.remove() }
        let first = try await database.open()
        let second = engine == .postgres ? try await database.open() : first
        do {
            try await body(first, second)
        } catch {
            if engine == .postgres { await second.close() }
            await first.close()
            throw error
        }
        if engine == .postgres { await second.close() }
        await first.close()
    }

    private static func paced(_ text: String, from sender: String, at now: Int64, parent: Int64? = nil) -> NewMessage {
        NewMessage(senderID: sender, parts: [.text(text)], parentID: parent, pace: SendPace(intervalMilliseconds: 10_000, now: now))
    }

    @Test(arguments: TestEngine.available)
    func aPacedSendIsRefusedOnTheOtherNodeUntilItsIntervalPasses(_ engine: TestEngine) async throws {
        try await Self.withTwoNodes(engine) { one, two in
            for id in ["alice", "bob"] { try await one.makeUser("a", id) }
            let room = try await one.makeRoom("a", creator: "alice", members: ["bob"])
            let start: Int64 = 1_700_000_000_000
            #expect(try await one.appendMessage(app: "a", room: room.id, Self.paced("one", from: "bob", at: start)).created)
            let standing = try await two.paceStanding(app: "a", room: room.id, user: "bob")
            #expect(standing?.role == .member && standing?.lastSentAt == start)
            do {
                _ = try await two.appendMessage(app: "a", room: room.id, Self.paced("two", from: "bob", at: start + 1_500))
                Issue.record("the second node must refuse the early send")
            } catch let error as StoreError {
                #expect(error.code == .slowMode && error.retryAfterSeconds == 9)
            }
            // A paced reply the store refuses rolls its slot back with it.
            await expectStoreError(.parentNotFound) {
                try await two.appendMessage(app: "a", room: room.id, Self.paced("re", from: "bob", at: start + 10_000, parent: 999_999))
            }
            #expect(try await two.appendMessage(app: "a", room: room.id, Self.paced("three", from: "bob", at: start + 10_001)).created)
            await expectStoreError(.slowMode) {
                try await one.appendMessage(app: "a", room: room.id, Self.paced("four", from: "bob", at: start + 12_000))
            }
            // Unpaced sends (moderators, the app) neither wait nor move the member's pace.
            #expect(try await one.send("a", room.id, from: "bob", "unpaced").created)
            #expect(try await one.paceStanding(app: "a", room: room.id, user: "bob")?.lastSentAt == start + 10_001)
            #expect(try await one.paceStanding(app: "a", room: room.id, user: "carol") == nil)
        }
    }

    @Test(arguments: TestEngine.available)
    func aPacedRetryOfAStoredMessageTakesNoSlot(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let start: Int64 = 1_700_000_000_000
            var message = Self.paced("one", from: "bob", at: start)
            message.clientID = "c1"
            let first = try await store.appendMessage(app: "a", room: room.id, message)
            message.pace = SendPace(intervalMilliseconds: 10_000, now: start + 10_000)
            let retry = try await store.appendMessage(app: "a", room: room.id, message)
            #expect(!retry.created && retry.message.id == first.message.id)
            #expect(try await store.paceStanding(app: "a", room: room.id, user: "bob")?.lastSentAt == start)
            #expect(try await store.appendMessage(app: "a", room: room.id, Self.paced("two", from: "bob", at: start + 10_001)).created)
        }
    }

    @Test(arguments: TestEngine.available)
    func racingPacedSendsFromTwoNodesStoreOne(_ engine: TestEngine) async throws {
        try await Self.withTwoNodes(engine) { one, two in
            for id in ["alice", "bob"] { try await one.makeUser("a", id) }
            let room = try await one.makeRoom("a", creator: "alice", members: ["bob"])
            let now: Int64 = 1_700_000_000_000
            let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    let node = index.isMultiple(of: 2) ? one : two
                    group.addTask {
                        do {
                            return try await node.appendMessage(app: "a", room: room.id, Self.paced("m\(index)", from: "bob", at: now))
                                .created
                        } catch let error as StoreError where error.code == .slowMode {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(stored == 1)
            #expect(try await one.history(app: "a", room: room.id, .latest()).count == 1)
        }
    }

    @Test(arguments: TestEngine.available)
    func aQuietPeriodIsClaimedOnceAcrossNodes(_ engine: TestEngine) async throws {
        try await Self.withTwoNodes(engine) { one, two in
            for id in ["alice", "bob", "carol", "dave"] { try await one.makeUser("a", id) }
            let room = try await one.makeRoom("a", creator: "alice", members: ["bob", "carol"])
            let users = ["bob", "carol", "dave"]
            #expect(
                try await one.claimNotificationPeriods(app: "a", room: room.id, users: users, now: 1_000, until: 6_000) == ["bob", "carol"])
            #expect(try await two.claimNotificationPeriods(app: "a", room: room.id, users: users, now: 2_000, until: 7_000) == [])
            #expect(try await two.claimNotificationPeriods(app: "a", room: room.id, users: ["bob"], now: 6_000, until: 11_000) == ["bob"])
            #expect(try await one.claimNotificationPeriods(app: "a", room: room.id, users: users, now: 6_500, until: 11_500) == ["carol"])
            // Racing claims for the same period: each member is claimed by exactly one of them.
            let claims = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<8 {
                    let node = index.isMultiple(of: 2) ? one : two
                    group.addTask {
                        try await node.claimNotificationPeriods(app: "a", room: room.id, users: users, now: 20_000, until: 25_000)
                    }
                }
                return try await group.reduce([]) { $0 + $1 }
            }
            #expect(claims.sorted() == ["bob", "carol"])
        }
    }

    @Test(arguments: TestEngine.available)
    func blockedReactionCountsAreTheBlockedUsersOnly(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob", "carol", "dave"] { try await store.makeUser("a", id) }
            let room = try await store.makeRoom("a", creator: "alice", members: ["bob", "carol", "dave"])
            let first = try await store.send("a", room.id, from: "carol", "vote").message
            let second = try await store.send("a", room.id, from: "carol", "again").message
            let plain = try await store.send("a", room.id, from: "carol", "none").message
            for (user, emoji) in [("bob", "👍"), ("carol", "👍"), ("dave", "🎉"), ("bob", "🎉")] {
                _ = try await store.addReaction(app: "a", room: room.id, message: first.id, user: user, emoji: emoji, maxDistinct: nil)
            }
            _ = try await store.addReaction(app: "a", room: room.id, message: second.id, user: "carol", emoji: "👍", maxDistinct: nil)
            #expect(try await store.block(app: "a", blocker: "alice", blocked: "bob"))
            #expect(try await store.block(app: "a", blocker: "alice", blocked: "dave"))
            let counts = try await store.blockedReactionCounts(
                app: "a", blocker: "alice", room: room.id, seqs: [first.seq, second.seq, plain.seq])
            #expect(counts == [first.seq: [ReactionCount(emoji: "🎉", count: 2), ReactionCount(emoji: "👍", count: 1)]])
            #expect(try await store.blockedReactionCounts(app: "a", blocker: "carol", room: room.id, seqs: [first.seq]) == [:])
            #expect(try await store.blockedReactionCounts(app: "a", blocker: "alice", room: room.id, seqs: [second.seq]) == [:])
        }
    }
}
