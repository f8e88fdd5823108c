import ParleyKitTesting
import Testing

@testable import ParleyKit

/// Threads, quotes and mentions through ParleyKit against the in-memory server, which follows
/// docs/threads.md: replies, thread pages, the root's live reply count, quotes that outlive
/// edits and deletes of the original, and mentions counted until a read cursor passes them.
@Suite struct ThreadTests {
    let clock = ManualClock()
    let server: InMemoryChatServer

    init() {
        server = InMemoryChatServer(clock: clock)
        for user in ["alice", "bob", "carol"] { server.addUser(user) }
    }

    /// Alice online in a new room with bob and carol, watching it from its start.
    func aliceWatching() async throws -> (ParleyClient, String, AsyncStream<RoomEvent>.Iterator) {
        let alice = try makeClient(server, "alice", clock: clock)
        try await alice.connect()
        await wait(alice, for: .online)
        let roomID = try await alice.createRoom(name: "general", memberIDs: ["bob", "carol"]).id
        let events = try await alice.roomEvents(roomID, after: 0).makeAsyncIterator()
        await waitForSubscribers(server, "private-room-" + roomID)
        return (alice, roomID, events)
    }

    @Test func aReplyJoinsTheRootsThreadAndPagesApartFromHistory() async throws {
        let alice = try makeClient(server, "alice", clock: clock), bob = try makeClient(server, "bob", clock: clock)
        let roomID = try await alice.createRoom(name: "general", memberIDs: ["bob", "carol"]).id
        let root = try #require(try await alice.send(text: "lunch?", to: roomID).message)
        let first = try await bob.reply([.text("pizza")], to: root.id, in: roomID)
        #expect(first.parentID == root.id && !first.showInRoom && first.seq == 2)
        // A reply to a reply is stored in the root's thread; this one shows in the room too.
        let second = try await alice.reply([.text("sushi")], to: first.id, in: roomID, alsoInRoom: true)
        #expect(second.parentID == root.id && second.showInRoom)
        let third = try await bob.reply([.text("both")], to: root.id, in: roomID)

        let stored = try await bob.message(root.id, in: roomID)
        #expect(stored.replyCount == 3 && stored.lastReplierIDs == ["bob", "alice"])
        #expect(try await bob.history(roomID).messages.map(\.id) == [root.id, second.id], "thread-only replies stay out of history")

        let latest = try await bob.replies(to: root.id, in: roomID, limit: 2)
        #expect(latest.messages.map(\.id) == [second.id, third.id] && latest.hasMore)
        let older = try await bob.replies(to: root.id, in: roomID, before: second.seq, limit: 2)
        #expect(older.messages.map(\.id) == [first.id] && !older.hasMore)
        let newer = try await bob.replies(to: root.id, in: roomID, after: first.seq, limit: 1)
        #expect(newer.messages.map(\.id) == [second.id] && newer.hasMore)
    }

    @Test func badThreadReferencesGetTheServersCodes() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        let roomID = try await alice.createRoom(name: "general").id
        let root = try #require(try await alice.send(text: "root", to: roomID).message)
        do {
            _ = try await alice.reply([.text("x")], to: root.id + 100, in: roomID)
            Issue.record("a reply to a missing message was stored")
        } catch {
            #expect(error.status == 422 && error.serverCode == "parent_not_found")
        }
        _ = try await alice.delete(messageID: root.id, in: roomID)
        do {
            _ = try await alice.reply([.text("x")], to: root.id, in: roomID)
            Issue.record("a reply to a deleted root was stored")
        } catch {
            #expect(error.status == 422 && error.serverCode == "parent_deleted")
        }
        do {
            _ = try await alice.reply([.text("x")], to: nil, in: roomID, quoting: root.id)
            Issue.record("a quote of a deleted message was stored")
        } catch {
            #expect(error.serverCode == "quoted_message_deleted")
        }
        do {
            _ = try await alice.replies(to: root.id + 100, in: roomID)
            Issue.record("a missing thread was paged")
        } catch {
            #expect(error.status == 404 && error.serverCode == "message_not_found")
        }
    }

    @Test func theRootsReplyCountFollowsThreadEvents() async throws {
        // The client must stay referenced: a freed one ends its streams.
        let (alice, roomID, iterator) = try await aliceWatching()
        defer { withExtendedLifetime(alice) {} }
        var events = iterator
        let root = try #require(server.post("who is in?", as: "alice", in: roomID))
        server.post("me", as: "bob", in: roomID, parentID: root.id)
        server.post("me too", as: "carol", in: roomID, parentID: root.id)
        var threadUpdates: [ThreadActivity] = []
        var seen: [RoomEvent] = []
        while threadUpdates.count < 2, let event = await events.next() {
            seen.append(event)
            if case .threadUpdated(let activity) = event { threadUpdates.append(activity) }
        }
        // The replies come through the feed too, in seq order, marked as thread-only.
        let replies = messages(seen).filter { $0.parentID == root.id }
        #expect(replies.map(\.text) == ["me", "me too"] && replies.allSatisfy { !$0.showInRoom })
        #expect(threadUpdates.map(\.replyCount) == [1, 2])
        #expect(threadUpdates.last?.lastReplierIDs == ["carol", "bob"])
        #expect(threadUpdates.last?.replyID == replies.last?.id && threadUpdates.last?.replySeq == replies.last?.seq)
        let shown = threadUpdates.reduce(root) { $1.applied(to: $0) }
        #expect(shown.replyCount == 2 && shown.lastReplierIDs == ["carol", "bob"])
        // An update of another thread or an older count leaves the message alone.
        #expect(threadUpdates.first?.applied(to: shown).replyCount == 2)
    }

    @Test func aQuoteKeepsTheSentTextAfterAnEditAndReadsDeletedAfterADelete() async throws {
        let alice = try makeClient(server, "alice", clock: clock), bob = try makeClient(server, "bob", clock: clock)
        let roomID = try await alice.createRoom(name: "general", memberIDs: ["bob"]).id
        let original = try #require(try await alice.send(text: "the plan is A", to: roomID).message)
        let quoting = try await bob.reply([.text("agreed")], to: nil, in: roomID, quoting: original.id)
        #expect(quoting.parentID == nil && quoting.showInRoom)
        #expect(quoting.quoted == QuotedMessage(id: original.id, senderID: "alice", parts: [.text("the plan is A")]))

        _ = try await alice.edit(messageID: original.id, in: roomID, parts: [.text("the plan is B")])
        #expect(try await bob.message(quoting.id, in: roomID).quoted?.text == "the plan is A")

        _ = try await alice.delete(messageID: original.id, in: roomID)
        let after = try await bob.history(roomID).messages.first { $0.id == quoting.id }
        #expect(after?.quoted == QuotedMessage(id: original.id, senderID: "alice", parts: [], isDeleted: true))
        #expect(after?.text == "agreed")
    }

    @Test func aMentionNotifiesCountsAsUnreadAndAReadCursorClearsIt() async throws {
        let alice = try makeClient(server, "alice", clock: clock), bob = try makeClient(server, "bob", clock: clock)
        let roomID = try await alice.createRoom(name: "general", memberIDs: ["bob"]).id
        var bobEvents = bob.userEvents().makeAsyncIterator()
        try await bob.connect()
        await waitForSubscribers(server, "#server-to-user-bob")

        // carol is no member and an address is no mention.
        let sent = try #require(try await alice.send(text: "@bob, see this (cc @carol, mail x@bob)", to: roomID).message)
        #expect(sent.mentions == ["bob"])
        var mentioned: ChatMessage?
        while mentioned == nil, let event = await bobEvents.next() { if case .mentioned(let message) = event { mentioned = message } }
        #expect(mentioned?.id == sent.id && mentioned?.roomID == roomID)

        try await alice.send(text: "again @bob", to: roomID)
        try await alice.send(text: "no mention", to: roomID)
        let before = try #require(try await bob.myRooms().first { $0.id == roomID })
        #expect(before.unreadMentions == 2 && before.unreadCount == 3)
        #expect(try await alice.myRooms().first { $0.id == roomID }?.unreadMentions == 0)

        let sleepers = clock.sleeperCount
        try await bob.markRead(roomID, upTo: sent.seq)
        while clock.sleeperCount <= sleepers { await Task.yield() }
        clock.advance(by: .seconds(1))
        var read: (Int, Int)?
        while read == nil, let event = await bobEvents.next() {
            if case .roomRead(let id, _, let unread, let mentions) = event, id == roomID { read = (unread, mentions) }
        }
        #expect(read?.0 == 2 && read?.1 == 1)
        #expect(try await bob.myRooms().first { $0.id == roomID }?.unreadMentions == 1)
    }

    @Test(.timeLimit(.minutes(1))) func aThreadOnlyReplyMissedOfflineDoesNotStallTheRoom() async throws {
        let (alice, roomID, iterator) = try await aliceWatching()
        defer { withExtendedLifetime(alice) {} }
        var events = iterator
        let root = try #require(server.post("root", as: "bob", in: roomID))
        _ = await read(&events) { messages($0).count >= 1 }
        // While no events arrive a thread-only reply takes seq 2: history will not have it.
        server.setPublishing(false)
        server.post("in the thread", as: "carol", in: roomID, parentID: root.id)
        server.post("in the room", as: "bob", in: roomID)
        server.setPublishing(true)
        server.dropConnections(code: 4200)
        await wait(alice, for: .online)
        server.post("later", as: "bob", in: roomID)
        let seen = messages(await read(&events) { messages($0).count >= 2 })
        #expect(seen.map(\.text) == ["in the room", "later"])
        #expect(seen.map(\.seq) == [3, 4])
    }
}
