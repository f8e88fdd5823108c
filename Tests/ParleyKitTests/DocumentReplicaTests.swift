import ParleyText
import Testing

@testable import ParleyKit

/// The y-websocket client protocol as values: what goes out when, and carets that follow the text.
struct DocumentReplicaTests {
    @Test func offlineEditsGoOutInStepTwoAndLiveUpdatesOnlyAfterIt() throws {
        var replica = DocumentReplica(clientID: 5, presence: DocumentPresence(name: "alice"))
        #expect(try replica.insert("offline", at: 0).isEmpty)
        let opening = replica.opened(now: 1).map { try? YSyncMessage.decode($0) }
        guard case .syncStep1? = opening.first, case .awareness(let awareness)?? = opening.last else {
            Issue.record("expected step 1 and awareness, got \(opening)")
            return
        }
        #expect(awareness.entries.first?.clock == 1, "peers ignore clock 0, as in y-protocols")
        // Before the server's step 1 is answered, an edit is not sent: it would depend on clocks the server lacks.
        #expect(try replica.insert(" more", at: 7).isEmpty)
        let outcome = replica.receive(YSyncMessage.syncStep1(stateVector: [0]).encode(), now: 2)
        guard case .syncStep2(let diff)? = try? YSyncMessage.decode(outcome.replies[0]) else {
            Issue.record("expected step 2")
            return
        }
        var server = TextDocument(clientID: 99)
        #expect(try server.applyUpdateIfComplete(diff))
        #expect(server.text == "offline more")
        // Now live: the next edit goes out as an update the server can integrate.
        let live = try replica.insert("!", at: 12)
        guard case .update(let update)? = try? YSyncMessage.decode(live[0]) else {
            Issue.record("expected an update")
            return
        }
        #expect(try server.applyUpdateIfComplete(update))
        #expect(server.text == "offline more!")
        #expect(replica.phase == .syncing)
        _ = replica.receive(YSyncMessage.syncStep2(update: server.encodeStateAsUpdate()).encode(), now: 3)
        #expect(replica.phase == .synced)
    }

    @Test func theCaretFollowsTheTextAndKeepsTypingAfterItsOwnCharacters() throws {
        var replica = DocumentReplica(clientID: 5, presence: DocumentPresence(name: "alice"))
        _ = replica.opened(now: 1)
        _ = replica.receive(YSyncMessage.syncStep1(stateVector: [0]).encode(), now: 1)
        _ = try replica.replaceSelection(with: "hello", now: 2)
        #expect(replica.selection == .cursor(5))
        // Someone inserts before the caret and at the caret: the caret stays after "hello".
        var other = TextDocument(clientID: 7)
        try other.applyUpdate(replica.document.encodeStateAsUpdate())
        try other.insert(">> ", at: 0)
        try other.insert(" bob", at: 8)
        _ = replica.receive(YSyncMessage.update(other.takeLocalUpdate()!).encode(), now: 3)
        #expect(replica.document.text == ">> hello bob")
        #expect(replica.selection == .cursor(8))
        _ = try replica.replaceSelection(with: " world", now: 4)
        #expect(replica.document.text == ">> hello world bob")
        // Backspace at the caret, then the deleted character's place holds the caret.
        _ = try replica.deleteAtCaret(forward: false, now: 5)
        #expect(replica.document.text == ">> hello worl bob")
        #expect(replica.selection == .cursor(13))
        // Remote deletion of the character the caret is tied to: the caret stays where it was.
        try other.applyUpdate(replica.document.encodeStateAsUpdate())
        try other.delete(at: 12, count: 1)
        _ = replica.receive(YSyncMessage.update(other.takeLocalUpdate()!).encode(), now: 6)
        #expect(replica.document.text == ">> hello wor bob")
        #expect(replica.selection == .cursor(12))
    }

    @Test func othersCursorsAreYjsRelativePositionsThatFollowTheText() throws {
        var alice = DocumentReplica(clientID: 5, presence: DocumentPresence(name: "alice"))
        var bob = DocumentReplica(clientID: 6, presence: DocumentPresence(name: "bob"))
        for replica in [0, 1] {
            _ = replica == 0 ? alice.opened(now: 1) : bob.opened(now: 1)
            _ =
                replica == 0
                ? alice.receive(YSyncMessage.syncStep1(stateVector: [0]).encode(), now: 1)
                : bob.receive(YSyncMessage.syncStep1(stateVector: [0]).encode(), now: 1)
        }
        _ = try alice.replaceSelection(with: "hello", now: 2)
        let announced = alice.setSelection(DocumentSelection(anchor: 0, head: 2), now: 3)
        _ = bob.receive(YSyncMessage.update(alice.document.encodeStateAsUpdate()).encode(), now: 4)
        for message in announced { _ = bob.receive(message, now: 4) }
        // On the wire: Yjs relative positions, associated to the left.
        guard case .awareness(let update)? = try? YSyncMessage.decode(announced[0]) else {
            Issue.record("expected awareness")
            return
        }
        let state = try #require(update.entries.first?.state)
        #expect(state.contains("\"head\":{\"item\":{\"client\":5,\"clock\":1},\"assoc\":-1}"))
        #expect(state.contains("\"anchor\":{\"tname\":\"text\",\"assoc\":-1}"))
        #expect(bob.peers.first?.presence.selection == DocumentSelection(anchor: 0, head: 2))
        // Bob types before Alice's caret: her cursor moves with the text, no new awareness needed.
        _ = try bob.insert("¡¡", at: 0)
        #expect(bob.peers.first?.presence.selection == DocumentSelection(anchor: 0, head: 4))
        // A Yjs binding's cursor (assoc 0, before an item) and a plain number both resolve.
        let yjs = "{\"user\":{\"name\":\"y\"},\"cursor\":{\"anchor\":{\"item\":{\"client\":5,\"clock\":4},\"assoc\":0},\"head\":7}}"
        let peer = DocumentPresence(json: yjs) { StickyPosition.resolve($0, in: bob.document) }
        #expect(peer?.selection == DocumentSelection(anchor: 6, head: 7))
    }

    @Test func presenceRoundTripsAndToleratesForeignStates() {
        let presence = DocumentPresence(userID: "u1", name: "Zoë \"z\"", color: "#ff0000", selection: DocumentSelection(anchor: 2, head: 5))
        #expect(DocumentPresence(json: presence.json) == presence)
        #expect(DocumentPresence(json: "{\"user\":{\"name\":\"yjs\"},\"cursor\":{\"anchor\":{\"type\":null}}}")?.selection == nil)
        #expect(DocumentPresence(json: "{\"user\":{\"name\":\"yjs\"}}")?.name == "yjs")
        #expect(DocumentPresence(json: "not json") == nil)
        #expect(DocumentPresence(json: "[1]") == nil)
    }
}
