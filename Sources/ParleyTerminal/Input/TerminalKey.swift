/// One key press (or pasted character) as the chat client understands it.
public enum TerminalKey: Sendable, Equatable {
    /// A printable character (already decoded from UTF-8).
    case character(Character)
    /// Enter / Return.
    case enter
    /// Backspace (DEL or ^H).
    case backspace
    /// Forward delete.
    case delete
    /// Tab.
    case tab
    /// A lone Escape.
    case escape
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// A control chord, by its lowercase letter (`control("c")` is Ctrl-C).
    case control(Character)
    /// An escape sequence the client does not use (kept so it never leaks into text).
    case unknown
}
