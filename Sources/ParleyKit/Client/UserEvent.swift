/// What happens to the signed-in user across rooms.
public enum UserEvent: Sendable, Equatable {
    /// The user was added to a room.
    case roomAdded(ChatRoom)
    /// The user left or was removed from a room, or it was deleted.
    case roomRemoved(roomID: String)
    /// A message arrived in one of the user's rooms.
    case roomActivity(ChatMessage)
    /// The user's read position (and unread and unread-mention counts) in a room changed, on any
    /// of their devices.
    case roomRead(roomID: String, readSeq: Int64, unreadCount: Int, unreadMentions: Int)
    /// A message in one of the user's rooms mentions the user (`@id`).
    case mentioned(ChatMessage)
    /// A member of a subscribed room came online or went offline.
    case presence(PresenceStatus)
}
