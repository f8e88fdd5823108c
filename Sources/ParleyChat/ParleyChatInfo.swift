/// The chat service: users, rooms, messages, attachments, cursors, typing and presence.
public enum ParleyChatInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyChat"
}
