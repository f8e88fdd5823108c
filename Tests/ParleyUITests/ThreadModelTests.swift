import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyUI

/// Threads and mentions in the screen models: the conversation shows a root's reply count and
/// keeps thread-only replies in their thread, the thread model shows root and replies live and
/// sends into the thread, rows carry the resolved mentions, the room list counts mentions.
@Suite struct ThreadModelTests {
    let clock = ManualClock(now: 1_700_000_000_000)
    let server: InMemoryChatServer
    let alice: ParleyClient
    let roomID: String

    init() async throws {
        server = InMemoryChatServer(clock: clock)
        server.addUser("bob", name: "Bob")
        server.addUser("carol", name: "Carol")
        alice = try makeClient(server, "alice", clock: clock)
        roomID = try await alice.createRoom(name: "general", memberIDs: ["bob", "carol"]).id
    }

    func subscribed(_ channel: String) async {
        while server.subscriberCount(channel) < 1 { await Task.yield() }
    }

    @Test func theConversationCountsRepliesAndLeavesThreadOnlyRepliesOut() async throws {
        let root = try #require(server.post("lunch?", as: "bob", in: roomID))
        try await alice.connect()
        let model = ConversationModel(client: alice, roomID: roomID)
        await model.start()
        await subscribed("private-room-" + roomID)
        server.post("pizza", as: "carol", in: roomID, parentID: root.id)
        server.post("sushi", as: "bob", in: roomID, parentID: root.id, showInRoom: true)
        let shown = await first(model.snapshots()) { $0.messages.first?.replyCount == 2 }
        #expect(shown?.messages.map(\.text) == ["lunch?", "sushi"], "the thread-only reply is not in the room")
        #expect(shown?.messages.first?.lastReplierNames == ["Bob", "Carol"])
        #expect(shown?.messages.last?.parentID == root.id)
        await model.stop()
    }

    @Test func theThreadModelShowsRootAndRepliesLiveAndRepliesIntoTheThread() async throws {
        let root = try #require(server.post("lunch?", as: "bob", in: roomID))
        let pizza = try #require(server.post("pizza", as: "carol", in: roomID, parentID: root.id))
        server.post("not in the thread", as: "bob", in: roomID)
        try await alice.connect()
        // Opened from a reply, it shows the reply's root thread.
        let model = ThreadModel(client: alice, roomID: roomID, rootID: pizza.id)
        await model.start()
        let loaded = await model.snapshot()
        #expect(loaded.rootID == root.id && loaded.root?.text == "lunch?" && loaded.root?.replyCount == 1)
        #expect(loaded.replies.map(\.text) == ["pizza"])
        #expect(loaded.replies.first?.senderName == "Carol")

        await subscribed("private-room-" + roomID)
        server.post("sushi", as: "bob", in: roomID, parentID: root.id)
        let live = await first(model.snapshots()) { $0.replies.count == 2 && $0.root?.replyCount == 2 }
        #expect(live?.replies.map(\.text) == ["pizza", "sushi"])

        await model.send("both")
        let sent = await model.snapshot()
        #expect(sent.replies.map(\.text) == ["pizza", "sushi", "both"])
        #expect(sent.replies.last?.direction == .outgoing)
        let stored = server.messages(in: roomID).last
        #expect(stored?.parentID == root.id && stored?.showInRoom == false)
        let counted = await first(model.snapshots()) { $0.root?.replyCount == 3 }
        #expect(counted?.root?.lastReplierNames.first == "Alice")
        await model.stop()
    }

    @Test func rowsCarryTheResolvedMentionsAndTheListCountsThem() async throws {
        try await alice.connect()
        let list = RoomListModel(client: alice)
        await list.start()
        await subscribed("#server-to-user-alice")
        server.post("hi @alice and @nobody, mail me@alice", as: "bob", in: roomID)
        let badge = await first(list.snapshots()) { $0.rows.first?.unreadMentions == 1 }
        #expect(badge?.rows.first?.unreadCount == 1)
        // A thread-only reply is the room's newest message but no unread one in the room.
        let root = try #require(server.messages(in: roomID).first)
        server.post("in the thread", as: "carol", in: roomID, parentID: root.id)
        let replied = await first(list.snapshots()) { $0.rows.first?.preview == "in the thread" }
        #expect(replied?.rows.first?.unreadCount == 1)

        let model = ConversationModel(client: alice, roomID: roomID)
        await model.start()
        let row = try #require(await model.snapshot().messages.first)
        #expect(row.mentions == ["alice"] && row.mentionsMe)
        #expect(row.mentionRanges.map { String(row.text[$0.range]) } == ["@alice"])
        let segments = MentionHighlight.segments(row.text, mentions: row.mentions)
        #expect(segments.map(\.text).joined() == row.text)
        #expect(segments.compactMap(\.userID) == ["alice"])
        await model.stop()
        await list.stop()
    }
}
