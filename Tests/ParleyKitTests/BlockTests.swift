import ParleyKitTesting
import Testing

@testable import ParleyKit

/// User blocks on the client (docs/moderation.md): the block list is read once and kept current
/// by this client's own blocks and unblocks, and a room feed passes over what blocked users do
/// live (messages, typing, reactions), as history leaves their messages out.
@Suite struct BlockTests {
    let clock = ManualClock()
    let server: InMemoryChatServer

    init() {
        server = InMemoryChatServer(clock: clock)
        for user in ["alice", "bob", "carol"] { server.addUser(user) }
    }

    @Test(.timeLimit(.minutes(1))) func theListIsReadOnceAndFollowsThisClientsBlocksAndUnblocks() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        var changes = alice.blockedUserChanges().makeAsyncIterator()
        #expect(try await alice.blockedUsers() == [])
        #expect(await changes.next() == [])
        try await alice.block("bob")
        #expect(await changes.next() == ["bob"])
        try await alice.block("carol")
        #expect(await changes.next() == ["bob", "carol"])
        try await alice.unblock("bob")
        #expect(await changes.next() == ["carol"])
        #expect(try await alice.blockedUsers() == ["carol"])
        #expect(server.requestCount("GET /v1/me/blocks") == 1, "kept current without reading it again")
        // Another client of the same user sees the server's list.
        #expect(try await makeClient(server, "alice", clock: clock).blockedUsers() == ["carol"])
    }

    @Test(.timeLimit(.minutes(1))) func aBlockBeforeTheListIsReadReadsTheWholeList() async throws {
        let other = try makeClient(server, "alice", clock: clock)
        try await other.block("carol")
        let alice = try makeClient(server, "alice", clock: clock)
        try await alice.block("bob")
        #expect(try await alice.blockedUsers() == ["bob", "carol"])
    }

    @Test(.timeLimit(.minutes(1))) func theFeedHidesBlockedUsersMessagesTypingAndReactions() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        try await alice.connect()
        await wait(alice, for: .online)
        let roomID = try await alice.createRoom(name: "general", memberIDs: ["bob", "carol"]).id
        let mine = try #require(try await alice.send(text: "hi all", to: roomID).message)
        try await alice.block("bob")
        var events = try await alice.roomEvents(roomID, after: mine.seq).makeAsyncIterator()
        await waitForSubscribers(server, "private-room-" + roomID)

        server.typing("bob", in: roomID)
        let bob = try makeClient(server, "bob", clock: clock)
        _ = try await bob.react("👎", to: mine.id, in: roomID)
        server.post("you will not see this", as: "bob", in: roomID)
        server.typing("carol", in: roomID)
        server.post("hello from carol", as: "carol", in: roomID)
        // Carol's message may come from the history fill before the live frames: read until both.
        let seen = await read(&events) { seen in
            messages(seen).contains { $0.senderID == "carol" } && seen.contains(.typing(userIDs: ["carol"]))
        }

        #expect(messages(seen).map(\.senderID) == ["carol"])
        #expect(!seen.contains { if case .typing(let users) = $0 { users.contains("bob") } else { false } })
        #expect(!seen.contains { if case .reactions = $0 { true } else { false } })
        #expect(try await alice.history(roomID).messages.map(\.senderID) == ["alice", "carol"], "history leaves bob out too")

        // Unblocked: bob's next message and reaction show again.
        try await alice.unblock("bob")
        _ = try await bob.react("👍", to: mine.id, in: roomID)
        server.post("back again", as: "bob", in: roomID)
        let later = await read(&events) { !messages($0).isEmpty }
        #expect(messages(later).map(\.senderID) == ["bob"])
        #expect(later.contains { if case .reactions(let id, _) = $0 { id == mine.id } else { false } })
        #expect(try await alice.history(roomID).messages.map(\.senderID) == ["alice", "bob", "carol", "bob"])
    }
}

/// The same against a real `parley serve --dev` in this process, over sockets.
@Suite(.serialized) struct BlockLoopbackTests {
    @Test(.timeLimit(.minutes(1))) func blockedUsersLiveEventsAreHiddenAgainstTheRealServer() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob"), carol = try await server.client("Carol")
        let bobID = try await bob.userID(), carolID = try await carol.userID()
        let room = try await bob.createRoom(name: "blocks", memberIDs: [try await alice.userID(), carolID])
        var events = try await watching(alice, bob, room.id)
        let greeting = try #require(try await alice.send(text: "hi", to: room.id).message)
        _ = await firstEvent(&events) { if case .message(let m) = $0, m.id == greeting.id { true } else { nil } }

        try await alice.block(bobID)
        #expect(try await alice.blockedUsers() == [bobID])
        try await bob.userIsTyping(in: room.id)
        _ = try await bob.react("👎", to: greeting.id, in: room.id)
        _ = try await bob.send(text: "hidden from alice", to: room.id)
        _ = try await carol.send(text: "carol here", to: room.id)
        let seen = await read(&events) { messages($0).contains { $0.senderID == carolID } }
        #expect(messages(seen).map(\.senderID) == [carolID])
        #expect(!seen.contains { if case .typing(let users) = $0 { users.contains(bobID) } else { false } })
        #expect(!seen.contains { if case .reactions = $0 { true } else { false } })
        #expect(!(try await alice.history(room.id).messages.contains { $0.senderID == bobID }))

        try await alice.unblock(bobID)
        _ = try await bob.send(text: "visible again", to: room.id)
        let later = await read(&events) { !messages($0).isEmpty }
        #expect(messages(later).map(\.senderID) == [bobID])
        await alice.close()
        await bob.close()
        await carol.close()
        await server.stop()
    }
}
