import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyTerminal
@testable import ParleyUI

/// `/search` in the terminal client against the in-memory server: results from the user's
/// rooms with room, sender and the matched words in reverse video, `--here` for the open
/// room, more results on Enter, Up/Down and Enter to open a result's room at the message, and
/// Esc or `/search` alone back to where the search began.
@Suite(.timeLimit(.minutes(1))) struct TerminalSearchTests: InMemoryControllers {
    let server = InMemoryChatServer()
    let size = TerminalSize(rows: 16, columns: 80)

    /// Alice in `general` with Bob and in `trips` with Carol; Bob and Carol also share `secret`.
    func rooms() async throws -> (ChatController, general: String, trips: String) {
        server.addUser("carol", name: "carol")
        let setup = try client("alice")
        let bob = try client("bob")
        let general = try await setup.createRoom(id: "general", name: "general", memberIDs: ["bob"]).id
        let trips = try await setup.createRoom(id: "trips", name: "trips", memberIDs: ["carol"]).id
        let secret = try await bob.createRoom(id: "secret", name: "secret", memberIDs: ["carol"]).id
        server.post("pizza for lunch today?", as: "bob", in: general)
        server.post("lunch in Lyon tomorrow", as: "carol", in: trips)
        server.post("lunch without alice", as: "carol", in: secret)
        server.post("nothing here", as: "bob", in: general)
        await setup.close()
        await bob.close()
        let alice = try controller("alice")
        await alice.start()
        await screen(alice) { $0.contains("general") && $0.contains("trips") }
        return (alice, general, trips)
    }

    @Test func theCommandIsParsed() {
        #expect(ChatInput.parse("/search lunch plans") == .search(query: "lunch plans", inRoom: false))
        #expect(ChatInput.parse("/search --here lunch") == .search(query: "lunch", inRoom: true))
        #expect(ChatInput.parse("/find café") == .search(query: "café", inRoom: false))
        #expect(ChatInput.parse("/search") == .search(query: "", inRoom: false))
    }

    @Test func resultsFromMyRoomsWithTheMatchesHighlightedAndEscCloses() async throws {
        let (alice, _, _) = try await rooms()
        await type(alice, "/search lunch")
        let shown = await screen(alice) { $0.contains("alice · search") && $0.contains("2 results for “lunch”") }
        #expect(shown.contains("#general") && shown.contains("bob: pizza for lunch today?"))
        #expect(shown.contains("#trips") && shown.contains("carol: lunch in Lyon tomorrow"))
        #expect(!shown.contains("without alice"), "not a message of a room alice is not in")
        #expect(!shown.contains("nothing here"))
        let frame = await alice.currentFrame()
        let line = try #require(frame.lines.first { $0.text.contains("pizza for lunch") })
        let match = try #require(line.spans.first { $0.text == "lunch" })
        #expect(match.style.reverse && match.style.bold)
        let before = try #require(line.spans.first { $0.text.contains("pizza") })
        #expect(!before.style.reverse, "only the matched word is highlighted")

        await alice.handle(.escape)
        await screen(alice) { $0.contains("alice · rooms") && !$0.contains("results for") }
        await alice.quit()
    }

    @Test func hereSearchesTheOpenRoomAndSearchAloneReturnsToIt() async throws {
        let (alice, _, _) = try await rooms()
        let index = try #require(await alice.screenState.roomList?.rows.firstIndex { $0.id == "trips" })
        for _ in 0..<index { await alice.handle(.down) }
        await alice.handle(.enter)
        await screen(alice) { $0.contains("alice · trips") }
        // From all rooms' results opened in a room, --here narrows to that room.
        await type(alice, "/search lunch")
        await screen(alice) { $0.contains("2 results for “lunch”") }
        await type(alice, "/search --here lunch")
        let shown = await screen(alice) { $0.contains("search in trips") && $0.contains("1 result for “lunch”") }
        #expect(shown.contains("carol: lunch in Lyon") && !shown.contains("pizza"))
        // Another query typed in the results searches the same room.
        await type(alice, "pizza")
        await screen(alice) { $0.contains("No messages match “pizza”") }
        await type(alice, "/search")
        await screen(alice) { $0.contains("alice · trips") && !$0.contains("search") }
        await alice.quit()
    }

    @Test func enterOnAnEmptyLineReadsMoreResults() async throws {
        let (alice, general, _) = try await rooms()
        for number in 1...21 { server.post("standup \(number)", as: "bob", in: general) }
        await type(alice, "/search standup")
        await screen(alice) { $0.contains("20+ results for “standup”") && $0.contains("bob: standup 21") }
        // The last screenful (PgDn) ends with the way to more results.
        await alice.handle(.pageDown)
        await alice.handle(.pageDown)
        await screen(alice) { $0.contains("bob: standup 2\n") && $0.contains("more results: Enter") }
        await alice.handle(.enter)
        await screen(alice) { $0.contains("bob: standup 1\n") && !$0.contains("more results: Enter") }
        await alice.handle(.pageUp)
        await alice.handle(.pageUp)
        await screen(alice) { $0.contains("21 results for “standup”") && $0.contains("bob: standup 21") }
        await alice.quit()
    }

    @Test func enterOnASelectedResultOpensItsRoomWithTheMessageMarkedPagesBack() async throws {
        let (alice, general, _) = try await rooms()
        // 120 later messages: the result is two history pages back from the newest.
        for number in 1...120 { server.post("filler \(number)", as: "bob", in: general) }
        await type(alice, "/search pizza")
        await screen(alice) { $0.contains("1 result for “pizza”") && $0.contains("  #general") }
        await alice.handle(.down)
        let selected = await screen(alice) { $0.contains("▸ #general") }
        #expect(selected.contains("none selected: more"), "the help line says how to select and what Enter does")
        await alice.handle(.enter)
        let room = await screen(alice) { $0.contains("alice · general") && $0.contains("▸ ") && $0.contains("bob: pizza for lunch today?") }
        #expect(!room.contains("filler 120"), "the screen shows the message, not the newest")
        let frame = await alice.currentFrame()
        let line = try #require(frame.lines.first { $0.text.contains("pizza for lunch") })
        #expect(line.text.hasPrefix("▸ "))
        let name = try #require(line.spans.first { $0.text == "bob" })
        #expect(name.style.reverse, "the marked message's name is in reverse video")
        let other = try #require(frame.lines.first { $0.text.contains("bob: nothing here") })
        #expect(!other.text.hasPrefix("▸") && other.spans.allSatisfy { !$0.style.reverse }, "only that message is marked")
        // Scrolling down reaches the newest messages, loaded around it without a gap.
        for _ in 0..<30 { await alice.handle(.pageDown) }
        let newest = await screen(alice) { $0.contains("bob: filler 120") }
        #expect(newest.contains("bob: filler 119"))
        await alice.quit()
    }

    @Test func aResultTooFarBackOpensTheRoomWithANotice() async throws {
        let (alice, general, _) = try await rooms()
        for number in 1...(ConversationModel.loadThroughLimit + 60) { server.post("filler \(number)", as: "bob", in: general) }
        await type(alice, "/search pizza")
        await screen(alice) { $0.contains("1 result for “pizza”") }
        await alice.handle(.down)
        await alice.handle(.enter)
        let room = await screen(alice) { $0.contains("alice · general") && $0.contains("too far back") }
        #expect(!room.contains("pizza") && !room.contains("▸"))
        await alice.quit()
    }

    @Test func upAndDownMoveTheSelectionAndTheMoreRowStillReadsMore() async throws {
        let (alice, general, _) = try await rooms()
        for number in 1...21 { server.post("standup \(number)", as: "bob", in: general) }
        await type(alice, "/search standup")
        await screen(alice) { $0.contains("20+ results for “standup”") }
        // Past the 20 results, the last entry is the "more results" row.
        for _ in 0..<25 { await alice.handle(.down) }
        await screen(alice) { $0.contains("▸ ↓ more results: Enter") && !$0.contains("▸ #") }
        await alice.handle(.enter)
        // The selection stays at that place, now the first result of the new page.
        let more = await screen(alice) { $0.contains("bob: standup 1\n") && $0.contains("▸ #general") }
        #expect(!more.contains("more results"), "no page left")
        let marked = more.split(separator: "\n").filter { $0.hasPrefix("▸") }
        #expect(marked.count == 1 && marked.first?.hasSuffix("bob: standup 1") == true)
        // Up from the first result selects none, and Enter reads more (none left: nothing changes).
        for _ in 0..<25 { await alice.handle(.up) }
        let top = await screen(alice) { $0.contains("21 results for “standup”") && !$0.contains("▸") }
        #expect(top.contains("bob: standup 21"))
        await alice.quit()
    }

    @Test func aRefusedQuerySaysWhy() async throws {
        let (alice, _, _) = try await rooms()
        await type(alice, "/search a b c d e f g h i")
        await screen(alice) { $0.contains("Cannot search for that") }
        await alice.quit()
    }
}
