import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyUI

/// The shared-document editor model against the in-memory y-websocket server.
@Suite(.timeLimit(.minutes(1))) struct DocumentEditorModelTests {
    let server = InMemoryDocumentServer()
    let url = "ws://fake/v1/rooms/r1/docs/notes/ws"

    func editor(_ name: String, clientID: UInt64) async -> (DocumentEditorModel, DocumentSession) {
        let session = DocumentSession(
            url: url, tokenProvider: StaticTokenProvider("t"), presence: DocumentPresence(name: name),
            transport: server, clientID: clientID)
        await session.start()
        let model = DocumentEditorModel(session: session, name: "notes")
        await model.start()
        return (model, session)
    }

    func waitFor(_ model: DocumentEditorModel, _ done: @Sendable (DocumentEditorSnapshot) -> Bool) async -> DocumentEditorSnapshot? {
        for await snapshot in model.snapshots() where done(snapshot) { return snapshot }
        return nil
    }

    @Test func twoPeopleTypingAtOnceKeepTheirWordsWholeAndConverge() async throws {
        let (alice, aliceSession) = await editor("alice", clientID: 1)
        let (bob, bobSession) = await editor("bob", clientID: 2)
        try await aliceSession.waitUntilSynced()
        try await bobSession.waitUntilSynced()
        // Keystrokes interleave; each one is a live edit at that person's caret.
        for (a, b) in zip("hello there", "bob's words") {
            try await alice.type(String(a))
            try await bob.type(String(b))
        }
        let onAlice = await waitFor(alice) { $0.characterCount == 22 }
        let onBob = await waitFor(bob) { $0.characterCount == 22 }
        #expect(onAlice?.text == onBob?.text)
        let text = try #require(onAlice?.text)
        #expect(text == "hello therebob's words" || text == "bob's wordshello there")
        #expect(onAlice?.counterText == "22 characters")
        // Each caret sits after its own last character; each sees the other's cursor and name.
        #expect(onAlice?.caret == (text.hasPrefix("hello") ? 11 : 22))
        let seen = await waitFor(alice) { snapshot in snapshot.others.contains { $0.name == "bob" && $0.position != nil } }
        #expect(seen?.othersText == "bob editing")
        #expect(server.text(of: url) == text)
        await alice.close()
        await bob.close()
    }

    @Test func backspaceDeleteAndCaretMovesEditWhereTheCaretIs() async throws {
        let (model, session) = await editor("alice", clientID: 1)
        try await session.waitUntilSynced()
        for character in "one\ntwo" { try await model.type(String(character)) }
        await model.move(.up)  // "one|"  (column 3 of line 0)
        try await model.backspace()  // "on|"
        await model.move(.lineStart)  // "|on"
        try await model.type(">")
        await model.move(.down)  // line 1 column 1: "t|wo"
        try await model.deleteForward()  // "t|o"
        await model.move(.lineEnd)
        try await model.type("!")
        let done = await waitFor(model) { $0.text == ">on\nto!" }
        #expect(done?.caret == 7)
        #expect(done?.characterCount == 7)
        await model.close()
    }

    @Test func editsWhileOfflineAreKeptAndMergedWhenBack() async throws {
        let (alice, aliceSession) = await editor("alice", clientID: 1)
        let (bob, bobSession) = await editor("bob", clientID: 2)
        try await aliceSession.waitUntilSynced()
        try await bobSession.waitUntilSynced()
        server.setOnline(false)
        _ = await waitFor(alice) { if case .reconnecting = $0.connection { true } else { false } }
        try await alice.type("typed offline")
        #expect(await alice.snapshot.connectionText == "◌ offline — edits kept")
        server.setOnline(true)
        let merged = await waitFor(bob) { $0.text == "typed offline" }
        #expect(merged != nil)
        await alice.close()
        await bob.close()
    }

    @Test func caretMovesAreArithmeticOnLines() {
        let text = "ab\n\nlonger line\nx"
        #expect(CaretMove.up.apply(to: 10, in: text) == 3)  // line 2 col 6 -> empty line 1
        #expect(CaretMove.down.apply(to: 1, in: text) == 3)  // line 0 col 1 -> empty line 1
        #expect(CaretMove.down.apply(to: 3, in: text) == 4)  // empty line -> line 2 col 0
        #expect(CaretMove.down.apply(to: 14, in: text) == 17)  // col 10 of line 2 -> end of "x"
        #expect(CaretMove.up.apply(to: 1, in: text) == 0)
        #expect(CaretMove.lineEnd.apply(to: 5, in: text) == 15)
        #expect(CaretMove.lineStart.apply(to: 15, in: text) == 4)
        #expect(CaretMove.left.apply(to: 0, in: text) == 0)
        #expect(CaretMove.right.apply(to: 17, in: text) == 17)
        #expect(CaretMove.right.apply(to: 99, in: "😀é") == 2)
    }
}
