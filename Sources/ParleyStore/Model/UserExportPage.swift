/// One page of everything a user wrote. The first page (no cursor) carries the profile,
/// memberships with read cursors, reactions and uploads; every page carries messages in id
/// order, and `nextAfter` names where the next page starts.
public struct UserExportPage: Sendable {
    /// The profile; nil when the user no longer exists (their messages may remain).
    public var user: ChatUser?
    /// Rooms, roles and read cursors (first page only).
    public var memberships: [Membership]
    /// The user's reactions: room, seq, emoji, when (first page only).
    public var reactions: [(roomID: String, seq: Int64, emoji: String, createdAt: Int64)]
    /// The user's uploads (first page only).
    public var attachments: [StoredAttachment]
    /// Messages the user sent, ascending id.
    public var messages: [Message]
    /// The message id to continue after; nil on the last page.
    public var nextAfter: Int64?

    /// Creates a page.
    public init(
        user: ChatUser?, memberships: [Membership], reactions: [(roomID: String, seq: Int64, emoji: String, createdAt: Int64)],
        attachments: [StoredAttachment], messages: [Message], nextAfter: Int64?
    ) {
        self.user = user
        self.memberships = memberships
        self.reactions = reactions
        self.attachments = attachments
        self.messages = messages
        self.nextAfter = nextAfter
    }
}
