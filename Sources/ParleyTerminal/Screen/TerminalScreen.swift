import ParleyKit
import ParleyUI

/// The chat screen as a pure function of state and size: a title bar, the room list or the
/// conversation, a typing line, a status line and the composer.
///
/// ```
/// parley · alice · #general                       online
/// ──────────────── 2024-05-01 ────────────────
/// 09:14 bob: morning!
/// 09:15 alice: hi bob                        ✓ seen
/// bob is typing…
///  Enter send · Esc rooms · /help
/// > draft text                                  10/256
/// ```
public struct TerminalScreen: Sendable {
    /// What to show.
    public var state: ChatScreenState
    /// The terminal size.
    public var size: TerminalSize

    /// Creates a screen.
    public init(state: ChatScreenState, size: TerminalSize) {
        self.state = state
        self.size = size
    }

    /// Rows left for the list or the messages (title, typing, status and composer take four).
    public var bodyRows: Int { max(0, size.rows - 4) }

    /// The frame to draw.
    public func frame() -> Frame {
        if state.mode == .document, !state.showsHelp, let document = state.document { return documentFrame(document) }
        var lines = [titleBar()]
        let body: [StyledLine]
        if state.showsHelp {
            body = helpLines()
        } else {
            switch state.mode {
            case .rooms: body = roomListLines()
            case .room, .document: body = conversationLines()
            case .thread: body = threadLines()
            case .search: body = searchLines()
            }
        }
        lines += body.prefix(bodyRows)
        lines += Array(repeating: StyledLine(), count: max(0, bodyRows - body.count))
        lines.append(typingLine())
        lines.append(statusLine())
        let (composer, cursorColumn) = composerLine()
        lines.append(composer)
        return Frame(
            size: size, lines: lines, cursor: (row: min(size.rows - 1, lines.count - 1), column: min(size.columns - 1, cursorColumn)))
    }

    // MARK: Bars

    func titleBar() -> StyledLine {
        let bar = TextStyle(bold: true, reverse: true)
        var left = " parley · " + state.userName
        switch state.mode {
        case .rooms:
            left += " · rooms"
            if let unread = state.roomList?.totalUnread, unread > 0 { left += " (\(unread) unread)" }
        case .room, .document:
            left += " · " + (state.conversation?.title ?? "…")
        case .thread:
            left += " · " + (state.conversation?.title ?? "…") + " › thread"
        case .search:
            left += " · search" + (state.searchRoomTitle.map { " in " + $0 } ?? "")
        }
        let right = titleStatus() + " "
        let gap = max(1, size.columns - DisplayWidth.of(left) - DisplayWidth.of(right))
        return StyledLine([.init(left, bar), .init(String(repeating: " ", count: gap), bar), .init(right, bar)], fillsWithStyle: true)
    }

    /// The right side of the title: the connection, else the direct partner's presence.
    private func titleStatus() -> String {
        guard let connection = state.connection, connection.isOnline else {
            return state.connection.map(Self.connectionWord) ?? "offline"
        }
        if state.mode == .room, let presence = state.conversation?.partnerPresence {
            return presence.isOnline ? "● online" : "○ offline"
        }
        return "● connected"
    }

    static func connectionWord(_ state: ConnectionState) -> String {
        switch state {
        case .online: "● connected"
        case .idle, .offline: "○ offline"
        case .signingIn: "◌ signing in"
        case .authenticationFailed: "○ sign-in failed"
        case .reconnecting: "◌ reconnecting"
        }
    }

    private func typingLine() -> StyledLine {
        guard state.mode == .room, let line = state.conversation?.typingLine else { return StyledLine() }
        return StyledLine(" " + line, TextStyle(dim: true))
    }

    /// The connection banner beats a notice, which beats the key hints.
    private func statusLine() -> StyledLine {
        if let banner = state.roomList?.banner ?? state.conversation?.banner {
            return StyledLine([.init(" ⚠ " + banner, TextStyle(bold: true, reverse: true, color: .red))], fillsWithStyle: true)
        }
        if let notice = state.notice ?? (state.mode == .room ? state.conversation?.notice : nil)
            ?? (state.mode == .thread ? state.thread?.notice : nil) ?? (state.mode == .search ? state.search?.error : nil)
        {
            return StyledLine(" " + notice, TextStyle(color: .yellow))
        }
        if state.showsHelp { return StyledLine(" Press Esc to close this help", TextStyle(bold: true)) }
        let hint: String
        switch state.mode {
        case .rooms: hint = " ↑↓ select · Enter open · /create NAME · /dm USER · /help · /quit"
        case .thread: hint = " Enter reply in the thread · Esc back to the room · /help"
        case .search: hint = " ↑↓ select · Enter open (none selected: more) · words+Enter search · Esc close"
        case .room, .document: hint = " Enter send · Esc rooms · PgUp older · /help"
        }
        return StyledLine(hint, TextStyle(dim: true))
    }

    /// The composer with its counter (in a room) and where the cursor goes.
    private func composerLine() -> (StyledLine, Int) {
        let composing = state.mode == .room || state.mode == .thread
        let prompt = composing ? "> " : ": "
        var counter = ""
        var counterStyle = TextStyle(dim: true)
        if composing {
            let composer = ComposerState(draft: state.editor.text, limit: state.characterLimit)
            counter = " " + composer.counterText
            if composer.isOverLimit { counterStyle = TextStyle(bold: true, color: .red) }
        }
        let field = max(1, size.columns - DisplayWidth.of(prompt) - DisplayWidth.of(counter))
        let (visible, cursor) = state.editor.window(width: field - 1)
        let padding = max(0, field - DisplayWidth.of(visible))
        let line = StyledLine([
            .init(prompt, TextStyle(bold: true)), .init(visible), .init(String(repeating: " ", count: padding)),
            .init(counter, counterStyle)
        ])
        return (line, DisplayWidth.of(prompt) + cursor)
    }

    private func helpLines() -> [StyledLine] {
        [StyledLine(" Commands", TextStyle(bold: true))] + ChatInput.helpLines.map { StyledLine("  " + $0) }
    }
}
