import Observation
import ParleyKit
import ParleyUI
import Synchronization
import Testing

/// Set once by `withObservationTracking`'s onChange: the observed property is about to change.
final class ChangeFlag: Sendable {
    private let fired = Mutex(false)
    var hasFired: Bool { fired.withLock { $0 } }
    func fire() { fired.withLock { $0 = true } }
}

/// Tracks what `read` reads; the flag fires at the first change of any of it.
@MainActor func observe(_ read: @MainActor () -> Void) -> ChangeFlag {
    let flag = ChangeFlag()
    withObservationTracking {
        read()
    } onChange: {
        flag.fire()
    }
    return flag
}

/// Polls `condition` on the main actor until it holds (a generous deadline, never a measurement).
@MainActor func eventually(_ what: Comment, _ condition: @MainActor () -> Bool) async {
    for _ in 0..<6000 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
    #expect(condition(), what)
}

/// The observable state layer (ParleyUI's RoomListState and ConversationState) driven against
/// a real server in this process: SwiftUI-style observers hear each change.
@Suite(.serialized) @MainActor struct ObservableStateTests {
    @Test func theRoomListTellsItsObserversAboutAMessageFromSomeoneElse() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "observed", memberIDs: [try await bob.userID()])
        try await bob.connect()
        await wait(bob, for: .online)

        let list = RoomListState(client: bob)
        await list.start()
        #expect(list.rows.map(\.id) == [room.id])
        #expect(list.connection == .online && list.banner == nil)
        let rowsChanged = observe { _ = list.rows }
        let noticeChanged = observe { _ = list.notice }

        _ = try await alice.send(text: "are you there?", to: room.id)
        await eventually("the list heard the new message") { rowsChanged.hasFired }
        await eventually("the row shows it") { list.rows.first?.preview == "are you there?" && list.rows.first?.unreadCount == 1 }
        #expect(list.totalUnread == 1)
        #expect(!noticeChanged.hasFired)

        let cleared = observe { _ = list.totalUnread }
        await list.setActiveRoom(room.id)
        #expect(cleared.hasFired && list.totalUnread == 0)
        await list.stop()
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func aConversationShowsTheDraftTheSentMessageAndTheReply() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "chat", memberIDs: [try await bob.userID()])
        try await alice.connect()
        await wait(alice, for: .online)

        let conversation = ConversationState(client: alice, roomID: room.id)
        await conversation.start()
        #expect(conversation.title == "chat" && conversation.messages.isEmpty)

        let composerChanged = observe { _ = conversation.composer }
        await conversation.updateDraft("hello Bob")
        #expect(composerChanged.hasFired && conversation.composer.draft == "hello Bob" && conversation.composer.canSend)

        let itemsChanged = observe { _ = conversation.items }
        await conversation.send()
        // send() returns once the state shows the server's answer.
        #expect(itemsChanged.hasFired)
        #expect(conversation.messages.map(\.text) == ["hello Bob"])
        #expect(conversation.messages.first?.messageID != nil && conversation.messages.first?.status == .sent)
        #expect(conversation.composer.draft.isEmpty)

        let replyArrived = observe { _ = conversation.items }
        _ = try await bob.send(text: "hi Alice", to: room.id)
        await eventually("the conversation heard the reply") { replyArrived.hasFired }
        await eventually("the reply is shown") { conversation.messages.map(\.text) == ["hello Bob", "hi Alice"] }
        #expect(conversation.messages.last?.direction == .incoming)
        await conversation.stop()
        await alice.close()
        await bob.close()
        await server.stop()
    }
}

/// Search as observable state against the real server: observers hear the results arrive.
@Suite(.serialized) @MainActor struct ObservableSearchStateTests {
    @Test func searchResultsReachTheirObserversWithTheMatchedRanges() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "food", memberIDs: [try await bob.userID()])
        _ = try await bob.send(text: "Tacos for lunch?", to: room.id)
        let search = SearchState(client: alice, pageSize: 1)
        let resultsChanged = observe { _ = search.results }
        await search.search("lunch")
        #expect(resultsChanged.hasFired && search.query == "lunch" && !search.isLoading && search.error == nil)
        #expect(search.results.map(\.roomTitle) == ["food"] && search.results.first?.senderName == "Bob")
        #expect(search.results.first?.matchedTexts == ["lunch"])
        #expect(!search.hasMore)
        await search.search("a b c d e f g h i")
        #expect(search.error != nil && search.results.isEmpty)
        await search.clear()
        #expect(search.query.isEmpty && search.error == nil)
        await alice.close()
        await bob.close()
        await server.stop()
    }
}
