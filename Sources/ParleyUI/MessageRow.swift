import ParleyKit

/// One message as a conversation screen shows it.
public struct MessageRow: Sendable, Equatable, Identifiable {
    /// Whether it was written here or by someone else.
    public enum Direction: Sendable, Equatable {
        /// From another user.
        case incoming
        /// From the signed-in user.
        case outgoing
    }

    /// Where an outgoing message stands (incoming ones are `.sent`).
    public enum Status: Sendable, Equatable {
        /// In the outbox, not yet acknowledged.
        case pending
        /// Stored by the server.
        case sent
        /// Read by at least one other member.
        case seen
        /// Refused by the server; retry or discard.
        case failed(reason: String)
    }

    /// A stable id: the client id while pending, then the server's message id.
    public var id: String
    /// The server's message id, once sent.
    public var messageID: Int64?
    /// The seq, once sent.
    public var seq: Int64?
    /// The client id, when this client sent it.
    public var clientID: String?
    /// The author's id.
    public var senderID: String
    /// The author's display name.
    public var senderName: String
    /// The text parts.
    public var text: String
    /// All parts (attachments and links too).
    public var parts: [MessagePart]
    /// Incoming or outgoing.
    public var direction: Direction
    /// Pending, sent, seen or failed.
    public var status: Status
    /// When it was written, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// Whether it was edited.
    public var isEdited: Bool
    /// Whether it was deleted (shown as a tombstone).
    public var isDeleted: Bool
    /// Reactions.
    public var reactions: [ReactionCount]
    /// Other members who have read it, sorted.
    public var seenBy: [String]
    /// The thread it replies to (the root's message id), nil for a message that is no reply.
    public var parentID: Int64? = nil
    /// How many replies its thread has (a thread's root only).
    public var replyCount: Int = 0
    /// The display names of the last repliers, newest first, at most three.
    public var lastReplierNames: [String] = []
    /// The message it quotes, as it was when sent (reads as deleted once the original is).
    public var quoted: QuotedMessage? = nil
    /// The quoted message's author's display name.
    public var quotedSenderName: String? = nil
    /// The members it mentions (`@id`), as the server resolved them when it was sent.
    public var mentions: [String] = []
    /// Whether it mentions the signed-in user.
    public var mentionsMe: Bool = false
    /// Where the resolved mentions stand in ``text`` (`@id` each), for highlighting.
    public var mentionRanges: [MentionSyntax.Match] = []
    /// The attachments its parts name that were deleted while the conversation was open: show
    /// them as gone rather than offer a download that answers `attachment_not_found`.
    public var deletedAttachmentIDs: Set<String> = []
}
