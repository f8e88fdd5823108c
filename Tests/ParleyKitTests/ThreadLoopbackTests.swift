import Testing

@testable import ParleyKit

/// Threads and mentions end to end: ParleyKit against a real `parley serve --dev` in this
/// process (SQLite), over real sockets and the Pusher protocol.
@Suite(.serialized) struct ThreadLoopbackTests {
    @Test(.timeLimit(.minutes(1))) func aReplyAMentionAndAReadCursorAgainstTheRealServer() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let bobID = try await bob.userID()
        let room = try await alice.createRoom(name: "threads", memberIDs: [bobID])
        var userEvents = bob.userEvents().makeAsyncIterator()
        // Bob is online and watching the room (his user channel was subscribed before it).
        var events = try await watching(bob, alice, room.id)

        let root = try #require(try await alice.send(text: "@\(bobID) lunch?", to: room.id).message)
        #expect(root.mentions == [bobID])
        var mentioned: ChatMessage?
        while mentioned == nil, let event = await userEvents.next() { if case .mentioned(let message) = event { mentioned = message } }
        #expect(mentioned?.id == root.id)
        #expect(try await bob.myRooms().first { $0.id == room.id }?.unreadMentions == 1)
        // Reading past it clears it (so would Bob's own next message: a send moves the sender's cursor).
        try await bob.markRead(room.id, upTo: root.seq)
        var mentionsLeft: Int?
        while mentionsLeft == nil, let event = await userEvents.next() {
            if case .roomRead(let id, _, _, let mentions) = event, id == room.id { mentionsLeft = mentions }
        }
        #expect(mentionsLeft == 0)

        let reply = try await bob.reply([.text("yes")], to: root.id, in: room.id)
        #expect(reply.parentID == root.id && !reply.showInRoom)
        let activity = await firstEvent(&events) { if case .threadUpdated(let activity) = $0 { activity } else { nil } }
        #expect(
            activity
                == ThreadActivity(
                    roomID: room.id, rootID: root.id, replyCount: 1, lastReplierIDs: [bobID], replyID: reply.id, replySeq: reply.seq))
        #expect(try await alice.replies(to: root.id, in: room.id).messages.map(\.id) == [reply.id])
        #expect(!(try await alice.history(room.id).messages.contains { $0.id == reply.id }))
        #expect(try await alice.message(root.id, in: room.id).replyCount == 1)
        await alice.close()
        await bob.close()
        await server.stop()
    }
}
