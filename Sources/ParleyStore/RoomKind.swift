/// Who may find and enter a room.
public enum RoomKind: String, Sendable, Hashable, CaseIterable {
    /// Listed and joinable by every user of the app.
    case `public`
    /// Entered only by invitation (a member adds you).
    case `private`
    /// A one-to-one conversation; exactly one per pair of users.
    case direct
}
