import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyUI

/// A conversation hides blocked users: messages already shown go when the user blocks them on
/// this client, what they send or type live never shows, and an unblock brings their messages
/// back from history.
@Suite struct ConversationBlockTests {
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

    @Test(.timeLimit(.minutes(1))) func blockedUsersMessagesAndTypingAreHiddenUntilUnblocked() async throws {
        server.post("before the block", as: "bob", in: roomID)
        try await alice.connect()
        let model = ConversationModel(client: alice, roomID: roomID)
        await model.start()
        #expect(await model.snapshot().messages.map(\.text) == ["before the block"])

        try await alice.block("bob")
        let hidden = await first(model.snapshots()) { $0.messages.isEmpty }
        #expect(hidden != nil)
        await waitForChannel(server, "private-room-" + roomID)
        server.typing("bob", in: roomID)
        server.typing("carol", in: roomID)
        let typing = await first(model.snapshots()) { $0.typingLine != nil }
        #expect(typing?.typingLine == "Carol is typing…")
        server.post("while blocked", as: "bob", in: roomID)
        server.post("carol speaks", as: "carol", in: roomID)
        let live = await first(model.snapshots()) { !$0.messages.isEmpty }
        #expect(live?.messages.map(\.text) == ["carol speaks"])

        try await alice.unblock("bob")
        let back = await first(model.snapshots()) { $0.messages.count == 3 }
        #expect(back?.messages.map(\.text) == ["before the block", "while blocked", "carol speaks"])
        await model.stop()
        await alice.close()
    }

    @Test(.timeLimit(.minutes(1))) func aBlockMadeElsewhereHidesLiveMessagesAndTypingFromTheStart() async throws {
        server.post("old", as: "bob", in: roomID)
        let elsewhere = try makeClient(server, "alice", clock: clock)
        try await elsewhere.block("bob")
        try await alice.connect()
        let model = ConversationModel(client: alice, roomID: roomID)
        await model.start()
        await waitForChannel(server, "private-room-" + roomID)
        #expect(await model.snapshot().messages.isEmpty, "history leaves bob's message out")
        server.typing("bob", in: roomID)
        server.typing("carol", in: roomID)
        let typing = await first(model.snapshots()) { $0.typingLine != nil }
        #expect(typing?.typingLine == "Carol is typing…")
        server.post("new", as: "bob", in: roomID)
        server.post("hi", as: "carol", in: roomID)
        let shown = await first(model.snapshots()) { !$0.messages.isEmpty }
        #expect(shown?.messages.map(\.text) == ["hi"])
        await model.stop()
        await alice.close()
    }
}

/// Waits until the server has `count` subscribers on a channel.
func waitForChannel(_ server: InMemoryChatServer, _ channel: String, _ count: Int = 1) async {
    while server.subscriberCount(channel) < count { await Task.yield() }
}
