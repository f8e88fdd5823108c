import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyTerminal
@testable import ParleyUI

/// The terminal client's logic end to end against the in-memory server: keys in, screen text out.
@Suite(.timeLimit(.minutes(1))) struct TerminalControllerTests: InMemoryControllers {
    let server = InMemoryChatServer()
    let size = TerminalSize(rows: 16, columns: 64)

    @Test func aliceCreatesARoomInvitesBobAndTheyTalk() async throws {
        let alice = try controller("alice")
        let bob = try controller("bob")
        await alice.start()
        await bob.start()
        await screen(bob) { $0.contains("No rooms yet") }

        await type(alice, "/create general")
        await screen(alice) { $0.contains("alice · general") && $0.contains("Created general") }
        await type(alice, "/invite bob")
        await screen(alice) { $0.contains("Invited bob") }
        await type(alice, "hello bob")
        await screen(alice) { $0.contains("alice: hello bob  ✓ sent") }

        // Bob's list shows the room with an unread badge; Enter opens it.
        await screen(bob) { $0.contains("general") && $0.contains("(1)") }
        await bob.handle(.enter)
        let bobsRoom = await screen(bob) { $0.contains("bob · general") && $0.contains("alice: hello bob") }
        #expect(!bobsRoom.contains("(1)"))

        // Bob's reading shows as "seen" on Alice's screen.
        await screen(alice) { $0.contains("alice: hello bob  ✓ seen") }

        // Bob types: Alice sees it, and the counter counts.
        await type(bob, "hi al", enter: false)
        await screen(bob) { $0.contains("> hi al") && $0.contains("5/256") }
        await screen(alice) { $0.contains("bob is typing…") }
        await type(bob, "ice")
        await screen(alice) { $0.contains("bob: hi alice") }
        await screen(bob) { $0.contains("0/256") }

        await alice.quit()
        await bob.quit()
    }

    @Test func directRoomsShowThePartnerAndLeavingGoesBackToTheList() async throws {
        let alice = try controller("alice")
        let bob = try controller("bob")
        await alice.start()
        await bob.start()
        await type(alice, "/dm bob")
        // Bob is connected, so the title says he is online.
        await screen(alice) { $0.contains("alice · bob") && $0.contains("● online") }
        await type(alice, "psst")
        await screen(bob) { $0.contains("● alice") && $0.contains("(1)") && $0.contains("psst") }
        await type(alice, "/leave")
        await screen(alice) { $0.contains("alice · rooms") && $0.contains("Left the room") && !$0.contains("● bob") }
        await type(alice, "/dm nobody")
        await screen(alice) { $0.contains("Failed:") }
        await alice.quit()
        await bob.quit()
    }

    @Test func draftsStayWithTheirRoom() async throws {
        let alice = try controller("alice")
        await alice.start()
        await type(alice, "/create one")
        await screen(alice) { $0.contains("· one") }
        await type(alice, "half-written", enter: false)
        await alice.handle(.escape)
        await type(alice, "/create two")
        await screen(alice) { $0.contains("· two") && $0.contains("> ") }
        #expect(await alice.screenState.editor.text == "")
        await alice.handle(.escape)
        // The list keeps the open room selected; rooms created in the same millisecond may come in either order.
        await screen(alice) { $0.contains("› # two") }
        let rows = await alice.screenState.roomList?.rows.map(\.title) ?? []
        await alice.handle(rows.first == "two" ? .down : .up)
        await screen(alice) { $0.contains("› # one") }
        await alice.handle(.enter)
        await screen(alice) { $0.contains("· one") && $0.contains("> half-written") && $0.contains("12/256") }
        await alice.quit()
    }

    @Test func imagesShowAsLabelledPlaceholdersWithTheirSize() async throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 2040)
        let alice = try controller("alice", options: .init(readFile: { $0 == "/photos/cat.png" ? png : nil }))
        await alice.start()
        await type(alice, "/create pics")
        await screen(alice) { $0.contains("· pics") }
        await type(alice, "/image /photos/missing.png")
        await screen(alice) { $0.contains("Cannot read /photos/missing.png") }
        await type(alice, "/image /photos/cat.png")
        await screen(alice) { $0.contains("alice: [image image/png, 2.0 KB]") }
        await alice.quit()
    }

    @Test func editDeleteReactAndErrorsShowOnScreen() async throws {
        let alice = try controller("alice")
        await alice.start()
        await type(alice, "/edit nothing yet")
        await screen(alice) { $0.contains("Open a room first") }
        await type(alice, "/create edits")
        await screen(alice) { $0.contains("· edits") }
        await type(alice, "/invite nobody")
        await screen(alice) { $0.contains("Failed:") }
        await type(alice, "typo")
        await screen(alice) { $0.contains("alice: typo  ✓ sent") }
        await type(alice, "/edit fixed")
        await screen(alice) { $0.contains("alice: fixed (edited)") }
        await type(alice, "/react 👍")
        await screen(alice) { $0.contains("[👍 1]") }
        await type(alice, "/delete")
        await screen(alice) { $0.contains("(message deleted)") }
        await type(alice, "/frobnicate")
        await screen(alice) { $0.contains("unknown command /frobnicate") }
        await type(alice, "/help")
        await screen(alice) { $0.contains("Press Esc to close this help") }
        await alice.handle(.escape)
        await screen(alice) { !$0.contains("Press Esc to close this help") }
        await alice.quit()
    }

    @Test func offlineShowsABannerAndMessagesWaitInTheOutbox() async throws {
        let alice = try controller("alice")
        await alice.start()
        await type(alice, "/create outage")
        await screen(alice) { $0.contains("· outage") && $0.contains("● connected") }
        server.setReachable(false)
        await screen(alice) { $0.contains("⚠ Reconnecting") || $0.contains("⚠ Offline") }
        await type(alice, "queued while offline")
        await screen(alice) { $0.contains("alice: queued while offline  … sending") }
        #expect(server.messages(in: "room-1").isEmpty)
        await alice.quit()
    }

    @Test func quitEndsTheFrameStreamAndResizeRedraws() async throws {
        let alice = try controller("alice")
        await alice.start()
        await alice.resize(TerminalSize(rows: 10, columns: 30))
        let frame = await alice.currentFrame()
        #expect(frame.size == TerminalSize(rows: 10, columns: 30))
        #expect(frame.lines.allSatisfy { $0.width == 30 })
        let frames = alice.frames()
        await type(alice, "/quit")
        var count = 0
        for await _ in frames { count += 1 }
        #expect(count >= 1)
        // Keys after quitting do nothing.
        await alice.handle(.character("x"))
        #expect(await alice.screenState.editor.text == "")
    }

    @Test func ctrlCQuitsFromAnyView() async throws {
        let alice = try controller("alice")
        await alice.start()
        let frames = alice.frames()
        await alice.handle(.control("c"))
        for await _ in frames {}
        #expect(await alice.finished)
    }
}

/// `/doc NAME` in the terminal client: the editor, its live counter, others' cursors, Esc back.
@Suite(.timeLimit(.minutes(1))) struct TerminalDocumentTests: ControllerDriving {
    let server = InMemoryChatServer()
    let documents = InMemoryDocumentServer()
    let size = TerminalSize(rows: 16, columns: 64)

    func controller(_ user: String) throws -> ChatController {
        server.addUser(user, name: user)
        let configuration = ParleyConfiguration(serverURL: "http://fake", appKey: server.appKey)
        let client = try ParleyClient(
            configuration: configuration, tokenProvider: StaticTokenProvider(server.token(for: user)),
            http: server, realtime: server, documents: documents)
        return ChatController(client: client, userName: user, size: size)
    }

    @Test func twoUsersEditTheRoomsDocumentAndEscReturnsToTheChat() async throws {
        let alice = try controller("alice")
        let bob = try controller("bob")
        await alice.start()
        await bob.start()
        await type(alice, "/create general")
        await screen(alice) { $0.contains("alice · general") }
        await type(alice, "/invite bob")
        await screen(bob) { $0.contains("general") }
        await bob.handle(.enter)
        await screen(bob) { $0.contains("bob · general") }

        await type(alice, "/doc notes")
        await type(bob, "/doc notes")
        let empty = await screen(alice) { $0.contains("· notes") && $0.contains("0 characters") && $0.contains("● synced") }
        #expect(empty.contains("Esc back to the chat"))
        await type(alice, "alice was here", enter: true)
        // Bob starts once Alice's line is there, so his caret (at the end) is below it.
        await screen(bob) { $0.contains("15 characters") }
        await type(bob, "bob too", enter: false)
        let both = await screen(alice) { $0.contains("22 characters") && $0.contains("bob editing") }
        #expect(both.contains("alice was here") && both.contains("bob too"))
        let onBob = await screen(bob) { $0.contains("22 characters") }
        let lines = { (screen: String) in screen.split(separator: "\n").dropFirst().prefix(2).map(String.init) }
        #expect(lines(onBob) == lines(both))

        await alice.handle(.escape)
        let back = await screen(alice) { $0.contains("alice · general") && !$0.contains("characters") }
        #expect(back.contains("> "))
        await screen(bob) { $0.contains("nobody else here") }
        await alice.quit()
        await bob.quit()
    }
}
