import ParleyKit
import Testing

@testable import ParleyTerminal
@testable import ParleyUI

/// Snapshot tests: model snapshots and a size in, screen text out.
@Suite struct TerminalScreenTests {
    // 2023-11-14 22:13:20 UTC, and an hour earlier on the day before it in UTC+2 terms.
    let t0: Int64 = 1_700_000_000_000

    func row(
        _ seq: Int64, _ sender: String, _ text: String, at time: Int64, outgoing: Bool = false,
        status: MessageRow.Status = .sent, parts: [MessagePart]? = nil
    ) -> MessageRow {
        MessageRow(
            id: "m\(seq)", messageID: seq + 100, seq: seq, clientID: nil, senderID: sender, senderName: sender, text: text,
            parts: parts ?? [.text(text)], direction: outgoing ? .outgoing : .incoming, status: status, createdAt: time,
            isEdited: false, isDeleted: false, reactions: [], seenBy: status == .seen ? ["bob"] : [])
    }

    func conversation(
        _ rows: [MessageRow], typing: String? = nil, banner: String? = nil, connection: ConnectionState = .online
    ) -> ConversationSnapshot {
        var items: [ConversationItem] = []
        var day: DayStamp?
        for row in rows {
            let stamp = DayStamp(milliseconds: row.createdAt)
            if stamp != day { items.append(.day(stamp)); day = stamp }
            items.append(.message(row))
        }
        return ConversationSnapshot(
            roomID: "r1", title: "general", partnerPresence: nil, items: items, typingLine: typing, banner: banner,
            connection: connection, composer: ComposerState(), hasOlder: false, notice: nil)
    }

    @Test func roomViewShowsDaysTimesNamesSeenTypingAndCounter() {
        var state = ChatScreenState(userName: "alice")
        state.mode = .room
        state.conversation = conversation(
            [
                row(1, "bob", "morning!", at: t0 - 86_400_000),
                row(2, "alice", "hi bob", at: t0, outgoing: true, status: .seen),
                row(3, "alice", "are you there?", at: t0 + 60_000, outgoing: true, status: .pending)
            ], typing: "bob is typing…")
        state.editor = LineEditor("draft")
        let frame = TerminalScreen(state: state, size: TerminalSize(rows: 10, columns: 44)).frame()
        #expect(
            frame.text == """
                 parley · alice · general       ● connected
                ──────────────── 2023-11-13 ────────────────
                22:13 bob: morning!
                ──────────────── 2023-11-14 ────────────────
                22:13 alice: hi bob  ✓ seen
                22:14 alice: are you there?  … sending

                 bob is typing…
                 Enter send · Esc rooms · PgUp older · /help
                > draft                                5/256
                """)
        #expect(frame.cursor?.row == 9)
        #expect(frame.cursor?.column == 7)
    }

    @Test func roomListShowsBadgesPresenceTimesAndSelection() {
        var state = ChatScreenState(userName: "alice")
        state.roomList = RoomListSnapshot(
            rows: [
                RoomRow(
                    id: "r1", title: "general", kind: .private, unreadCount: 3, preview: "see you\nat ten", lastActivityAt: t0,
                    partnerID: nil, partnerOnline: nil),
                RoomRow(
                    id: "d1", title: "bob", kind: .direct, unreadCount: 0, preview: "ok", lastActivityAt: t0 - 3_600_000,
                    partnerID: "bob", partnerOnline: true),
                RoomRow(
                    id: "d2", title: "carol", kind: .direct, unreadCount: 0, preview: nil, lastActivityAt: 0,
                    partnerID: "carol", partnerOnline: false)
            ], banner: nil, connection: .online)
        state.selectedRow = 1
        let frame = TerminalScreen(state: state, size: TerminalSize(rows: 8, columns: 60)).frame()
        #expect(
            frame.text == """
                 parley · alice · rooms (3 unread)              ● connected
                   # general              (3)   22:13  see you at ten
                 › ● bob                        21:13  ok
                   ○ carol


                 ↑↓ select · Enter open · /create NAME · /dm USER · /help ·
                :
                """)
        // The selected row is drawn in reverse video across the whole width.
        #expect(frame.lines[2].spans.allSatisfy { $0.style.reverse })
        #expect(frame.lines[1].spans.allSatisfy { !$0.style.reverse })
        #expect(frame.cursor?.row == 7 && frame.cursor?.column == 2)
    }

    @Test func offlineBannerOverLimitCounterAndImagePlaceholder() {
        var state = ChatScreenState(userName: "alice")
        state.mode = .room
        state.characterLimit = 10
        state.conversation = conversation(
            [
                row(1, "bob", "", at: t0, parts: [.attachment(id: "att-1")]),
                row(2, "bob", "", at: t0, parts: [.attachment(id: "att-2")])
            ], banner: "Reconnecting in 2 s…", connection: .reconnecting(attempt: 1, delay: .seconds(2)))
        state.attachments["att-1"] = Attachment(
            id: "att-1", roomID: "r1", uploaderID: "bob", contentType: "image/png", size: 12_650,
            width: 640, height: 480)
        state.editor = LineEditor("this is too long")
        let frame = TerminalScreen(state: state, size: TerminalSize(rows: 7, columns: 50)).frame()
        #expect(
            frame.text == """
                 parley · alice · general          ◌ reconnecting
                ─────────────────── 2023-11-14 ───────────────────
                22:13 bob: [image image/png 640×480, 12.4 KB]
                22:13 bob: [attachment att-2]

                 ⚠ Reconnecting in 2 s…
                > this is too long                           16/10
                """)
        #expect(frame.lines[5].spans.contains { $0.style.color == .red && $0.style.reverse })
        #expect(frame.lines[6].spans.last?.style.color == .red)
    }

    @Test func longMessagesWrapUnderTheTextAndTheNewestStayInView() {
        var state = ChatScreenState(userName: "alice")
        state.mode = .room
        let long = "the quick brown fox jumps over the lazy dog and keeps on running"
        state.conversation = conversation((1...6).map { row($0, "bob", "\(long) \($0)", at: t0) })
        let frame = TerminalScreen(state: state, size: TerminalSize(rows: 9, columns: 30)).frame()
        #expect(frame.lines.allSatisfy { $0.width == 30 })
        let body = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The newest message's last words are on the last body row; wrapped rows are indented.
        #expect(body[5].hasSuffix("running 6"))
        #expect(body[1...5].contains { $0.hasPrefix("           dog") })
        #expect(!frame.text.contains("running 1"))
        // Scrolled back, older lines come into view.
        state.scrollBack = 8
        let scrolled = TerminalScreen(state: state, size: TerminalSize(rows: 9, columns: 30)).frame()
        #expect(!scrolled.text.contains("running 6"))
        #expect(scrolled.text.contains("running 4") || scrolled.text.contains("running 3"))
    }

    @Test func helpOverlayListsTheCommands() {
        var state = ChatScreenState(userName: "alice")
        state.showsHelp = true
        let text = TerminalScreen(state: state, size: TerminalSize(rows: 24, columns: 90)).frame().text
        for command in [
            "/create", "/join", "/dm", "/invite", "/leave", "/image", "/file", "/edit", "/delete", "/react", "/block", "/unblock", "/rooms",
            "/quit"
        ] {
            #expect(text.contains(command))
        }
    }

    @Test func tinyTerminalsStillGetAValidFrame() {
        var state = ChatScreenState(userName: "a-very-long-user-name")
        state.mode = .room
        state.conversation = conversation([row(1, "bob", "日本語のメッセージ 👍", at: t0)])
        for size in [TerminalSize(rows: 1, columns: 1), TerminalSize(rows: 3, columns: 5), TerminalSize(rows: 6, columns: 11)] {
            let frame = TerminalScreen(state: state, size: size).frame()
            #expect(frame.lines.count == size.rows)
            #expect(frame.lines.allSatisfy { $0.width == size.columns })
            #expect((frame.cursor?.column ?? 0) < size.columns)
        }
    }
}

/// The `/doc` editor screen: lines, wrapping, the caret, others' cursors, the live counter.
@Suite struct TerminalDocumentScreenTests {
    @Test func theEditorWrapsLinesPlacesTheCaretAndMarksOthersCursors() {
        var state = ChatScreenState(userName: "alice")
        state.mode = .document
        let text = "Shopping\n- milk and a very long line of bread\n😀 eggs"
        state.document = DocumentEditorSnapshot(
            name: "notes", text: text, characterCount: text.unicodeScalars.count, caret: 14,
            others: [.init(name: "bob", position: 52), .init(name: "carol", position: nil)],
            connection: .synced)
        let frame = TerminalScreen(state: state, size: TerminalSize(rows: 9, columns: 32)).frame()
        #expect(
            frame.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n") == """
                Shopping
                - milk and a very long line of
                bread
                😀 eggs

                 bob, carol editing
                 Esc back to the chat · edits ar
                 notes · 52 characters ● synced
                """)
        // Scalar 14 is the "k" of "milk": column 5 of the second text row.
        #expect(frame.cursor?.row == 2 && frame.cursor?.column == 5)
        // Bob's cursor at the end of the text: the blank cell after "eggs", in reverse video.
        let marked = frame.lines[4].spans.filter { $0.style.reverse }
        #expect(marked.map(\.text) == [" "])
        #expect(frame.lines[4].spans.first?.text.hasPrefix("😀 eggs") == true)
    }

    @Test func aLongDocumentScrollsToKeepTheCaretInView() {
        var state = ChatScreenState(userName: "alice")
        state.mode = .document
        let text = (1...20).map { "line \($0)" }.joined(separator: "\n")
        state.document = DocumentEditorSnapshot(
            name: "notes", text: text, characterCount: text.unicodeScalars.count,
            caret: text.unicodeScalars.count, connection: .reconnecting(attempt: 1, delay: .seconds(1)))
        let frame = TerminalScreen(state: state, size: TerminalSize(rows: 8, columns: 60)).frame()
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines[1...4]) == ["line 17", "line 18", "line 19", "line 20"])
        #expect(frame.cursor?.row == 4 && frame.cursor?.column == 7)
        #expect(lines[0].hasSuffix("◌ offline — edits kept"))
        #expect(lines[5] == " nobody else here")
    }
}
