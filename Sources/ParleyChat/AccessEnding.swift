/// A user's access that just ended: to one room (membership), to every room (user deleted),
/// or everyone's access to a room (room deleted).
public struct AccessEnding: Sendable, Hashable {
    /// Why access ended; the raw value is what clients are told.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// A room admin (or the app) removed the member.
        case memberRemoved = "member_removed"
        /// The member left the room (or removed themself).
        case left
        /// The room was deleted.
        case roomDeleted = "room_deleted"
        /// The user was deleted.
        case userDeleted = "user_deleted"
        /// A moderator banned the member from the room.
        case banned
        /// A moderator kicked the member out of the room (they may join again).
        case kicked
    }

    /// The app.
    public var app: String
    /// The room, or nil when the user lost every room (user deleted).
    public var room: String?
    /// The user, or nil when every member lost the room (room deleted).
    public var user: String?
    /// Why.
    public var reason: Reason

    /// Creates a value.
    public init(app: String, room: String?, user: String?, reason: Reason) {
        self.app = app
        self.room = room
        self.user = user
        self.reason = reason
    }
}

/// Hears when access ends, after the store committed the change and the chat's own channels
/// were revoked; the documents mount closes the matching y-websocket sessions. Must return
/// quickly (the request that ended the access waits for it).
public protocol AccessEndObserver: Sendable {
    /// Access ended as `ending` says.
    func accessEnded(_ ending: AccessEnding)
}
