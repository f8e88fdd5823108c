/// What happens in a room, as the app sees it: new messages exactly once and in seq order.
public enum RoomEvent: Sendable, Equatable {
    /// A new message (from the feed, the history gap-fill or this client's own send).
    case message(ChatMessage)
    /// A message was edited.
    case messageUpdated(ChatMessage)
    /// A message was deleted (a tombstone keeping its seq).
    case messageDeleted(ChatMessage)
    /// A thread got a reply: its root's new reply count and last repliers. The reply itself
    /// comes as ``message(_:)`` (a thread-only reply too, with ``ChatMessage/showInRoom`` false).
    case threadUpdated(ThreadActivity)
    /// A message's reaction counts changed.
    case reactions(messageID: Int64, reactions: [ReactionCount])
    /// A member's read cursor moved.
    case cursor(ReadCursor)
    /// The users typing now (others only), sorted; empty when they stopped or expired.
    case typing(userIDs: [String])
    /// A member came online or went offline.
    case presence(PresenceStatus)
    /// A user joined the room.
    case memberJoined(userID: String)
    /// A user left the room.
    case memberLeft(userID: String)
    /// A member's role changed.
    case memberUpdated(Membership)
    /// The room changed.
    case roomUpdated(ChatRoom)
    /// An attachment of the room was deleted: messages naming it keep their part, but its file
    /// is gone (downloads answer `attachment_not_found`).
    case attachmentDeleted(attachmentID: String)
    /// The room was deleted.
    case roomDeleted
    /// The room's channel subscription was refused (not a member, no such room…): no live
    /// events come until a later connection subscribes again.
    case subscriptionFailed(ParleyError)
    /// This room's outbox changed: the messages not yet acknowledged by the server, oldest first.
    case outbox([PendingMessage])
}
