import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyTerminal
@testable import ParleyUI

/// `/thread`, reply markers, mention highlighting and `@` completion in the terminal client,
/// against the in-memory server.
@Suite(.timeLimit(.minutes(1))) struct TerminalThreadTests: InMemoryControllers {
    let server = InMemoryChatServer()
    let size = TerminalSize(rows: 16, columns: 72)

    /// Alice and Bob in `general`, both looking at it, after Alice wrote `text`.
    func bothInARoom(_ text: String) async throws -> (ChatController, ChatController) {
        let alice = try controller("alice"), bob = try controller("bob")
        await alice.start()
        await bob.start()
        await type(alice, "/create general")
        await screen(alice) { $0.contains("alice · general") }
        await type(alice, "/invite bob")
        await screen(alice) { $0.contains("Invited bob") }
        await type(alice, text)
        await screen(bob) { $0.contains("general") && $0.contains("(1)") }
        await bob.handle(.enter)
        await screen(bob) { $0.contains("bob · general") && $0.contains("alice: " + text) }
        return (alice, bob)
    }

    @Test func aThreadOpensRepliesAndTheRootShowsItsCount() async throws {
        let (alice, bob) = try await bothInARoom("lunch?")
        await type(bob, "/thread 1")
        await screen(bob) { $0.contains("bob · general › thread") && $0.contains("alice: lunch?") && $0.contains("0 replies") }
        await type(bob, "pizza")
        await screen(bob) { $0.contains("1 reply") && $0.contains("bob: pizza") }
        // Alice's room shows the count, not the thread-only reply.
        let room = await screen(alice) { $0.contains("↳ 1 reply (bob) — /thread 1") }
        #expect(!room.contains("pizza"))
        await type(alice, "/thread")
        await screen(alice) { $0.contains("› thread") && $0.contains("bob: pizza") }
        await type(alice, "sushi")
        await screen(bob) { $0.contains("2 replies") && $0.contains("alice: sushi") }
        // Esc (or /back) returns to the room.
        await bob.handle(.escape)
        await screen(bob) { $0.contains("bob · general") && !$0.contains("› thread") && $0.contains("↳ 2 replies (alice, bob)") }
        await type(alice, "/back")
        await screen(alice) { $0.contains("alice · general") && !$0.contains("› thread") }
        await alice.quit()
        await bob.quit()
    }

    @Test func mentionsOfTheUserAreHighlightedAndTabCompletesANameAfterAt() async throws {
        let (alice, bob) = try await bothInARoom("hi all")
        await type(alice, "@b", enter: false)
        await alice.handle(.tab)
        await screen(alice) { $0.contains("> @bob ") }
        await type(alice, "look")
        await screen(bob) { $0.contains("alice: @bob look") }
        let frame = await bob.currentFrame()
        let spans = frame.lines.flatMap(\.spans)
        let mention = try #require(spans.first { $0.text == "@bob" })
        #expect(mention.style.reverse && mention.style.bold)
        // Alice's own screen shows the mention of someone else bold, not reversed.
        await screen(alice) { $0.contains("alice: @bob look") }
        let own = await alice.currentFrame().lines.flatMap(\.spans).first { $0.text == "@bob" }
        #expect(own?.style.bold == true && own?.style.reverse == false)
        await alice.quit()
        await bob.quit()
    }
}

@Test func threadCommandsParse() {
    #expect(ChatInput.parse("/thread") == .thread(seq: nil))
    #expect(ChatInput.parse("/thread 3") == .thread(seq: 3))
    #expect(ChatInput.parse("/t #12") == .thread(seq: 12))
    #expect(ChatInput.parse("/back") == .back)
    for line in ["/thread x", "/thread 3 more"] {
        guard case .invalid(let message) = ChatInput.parse(line) else {
            Issue.record("\(line) should be refused")
            continue
        }
        #expect(message.contains("usage"))
    }
}

@Test func mentionCompletionReplacesTheWordBeforeTheCursor() {
    var editor = LineEditor("hi @ca there")
    for _ in 0..<6 { editor.apply(.left) }
    #expect(editor.mentionPrefix == "ca")
    editor.completeMention(with: "carol", finished: true)
    #expect(editor.text == "hi @carol  there" && editor.cursor == 10)
    #expect(LineEditor("mail me@ca").mentionPrefix == nil)
    #expect(LineEditor("no mention").mentionPrefix == nil)
    var partial = LineEditor("@b")
    partial.completeMention(with: "bo", finished: false)
    #expect(partial.text == "@bo" && partial.mentionPrefix == "bo")
}
