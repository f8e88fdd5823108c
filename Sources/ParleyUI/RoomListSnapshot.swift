import ParleyKit

/// Everything a room-list screen shows, as one value.
public struct RoomListSnapshot: Sendable, Equatable {
    /// Rooms, most recent activity first.
    public var rows: [RoomRow]
    /// A banner while not online, or nil.
    public var banner: String?
    /// The connection state behind the banner.
    public var connection: ConnectionState
    /// The last failure to load or refresh, for a transient notice; nil after a success.
    public var notice: String?

    /// Unread messages across all rooms.
    public var totalUnread: Int { rows.reduce(0) { $0 + $1.unreadCount } }
}
