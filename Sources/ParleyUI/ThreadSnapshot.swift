import ParleyKit

/// Everything a thread screen shows, as one value: the root message, then its replies.
public struct ThreadSnapshot: Sendable, Equatable {
    /// The room.
    public var roomID: String
    /// The thread's root message id.
    public var rootID: Int64
    /// The root message, once loaded (its ``MessageRow/replyCount`` follows new replies).
    public var root: MessageRow?
    /// The replies loaded so far, oldest first (thread-only ones and those also in the room).
    public var replies: [MessageRow]
    /// Whether older replies exist beyond the first one shown.
    public var hasOlder: Bool
    /// The last intent's failure, for a transient notice.
    public var notice: String?
}
