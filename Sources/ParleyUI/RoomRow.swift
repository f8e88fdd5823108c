import ParleyKit

/// One room in the room list.
public struct RoomRow: Sendable, Equatable, Identifiable {
    /// The room's id.
    public var id: String
    /// The room's name, or the direct partner's name.
    public var title: String
    /// The room's kind.
    public var kind: ChatRoom.Kind
    /// Unread messages (by others) — the badge.
    public var unreadCount: Int
    /// Unread messages that mention the user (`@id`).
    public var unreadMentions: Int = 0
    /// The latest message's text (or a label for an attachment), if any.
    public var preview: String?
    /// When the room last saw activity, milliseconds since the Unix epoch.
    public var lastActivityAt: Int64
    /// The other user of a direct room.
    public var partnerID: String?
    /// Whether that partner is online (nil when unknown or not a direct room).
    public var partnerOnline: Bool?
}
