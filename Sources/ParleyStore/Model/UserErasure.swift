/// What one erasure of a user changed (all zero when there was nothing left to erase).
public struct UserErasure: Sendable, Hashable {
    /// The author id erased content is left under: `~` is not a user id character, so it
    /// never names a real user.
    public static let anonymousAuthor = "~erased"

    /// The mode applied.
    public var mode: ErasureMode
    /// Whether the user's profile still existed (false on a repeated erasure).
    public var userRemoved: Bool
    /// Messages tombstoned (delete) or re-authored (anonymise).
    public var messages: Int
    /// Reactions of the user removed.
    public var reactions: Int
    /// Attachments whose rows were removed; the caller removes their files after the commit.
    public var removedAttachments: [StoredAttachment]
    /// Attachments kept under the anonymous author.
    public var anonymisedAttachments: Int
    /// The rooms the user was a member of (their memberships are gone).
    public var roomIDs: [String]
    /// The audit row recorded in the same transaction.
    public var audit: AppAuditEntry

    /// Creates a result.
    public init(
        mode: ErasureMode, userRemoved: Bool, messages: Int, reactions: Int, removedAttachments: [StoredAttachment],
        anonymisedAttachments: Int, roomIDs: [String], audit: AppAuditEntry
    ) {
        self.mode = mode
        self.userRemoved = userRemoved
        self.messages = messages
        self.reactions = reactions
        self.removedAttachments = removedAttachments
        self.anonymisedAttachments = anonymisedAttachments
        self.roomIDs = roomIDs
        self.audit = audit
    }
}
