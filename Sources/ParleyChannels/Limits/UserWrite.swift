/// The kinds of writes a user makes that have their own per-user rate (config key in `rates`).
public enum UserWrite: String, Sendable, Hashable, CaseIterable {
    /// `POST /v1/rooms/{id}/messages`.
    case messages
    /// Adding or removing a reaction.
    case reactions
    /// Editing a message.
    case edits
    /// Deleting a message.
    case deletes
    /// `POST /v1/rooms/{id}/typing`.
    case typing
    /// Creating a room (group or direct), changing or deleting one.
    case rooms
    /// Joining, leaving, adding, changing or removing members.
    case memberships
    /// Attachment uploads.
    case uploads
    /// Moving the read cursor.
    case cursors
    /// Creating a document.
    case documents

    /// The default rate: generous for a person at a keyboard, tight for a script.
    public var defaultLimit: RateLimit {
        switch self {
        case .messages: RateLimit(perSecond: 20, burst: 40)
        case .reactions: RateLimit(perSecond: 5, burst: 30)
        case .edits: RateLimit(perSecond: 5, burst: 20)
        case .deletes: RateLimit(perSecond: 5, burst: 20)
        case .typing: RateLimit(perSecond: 2, burst: 10)
        case .rooms: RateLimit(perSecond: 1, burst: 20)
        case .memberships: RateLimit(perSecond: 5, burst: 50)
        case .uploads: RateLimit(perSecond: 2, burst: 10)
        case .cursors: RateLimit(perSecond: 10, burst: 30)
        case .documents: RateLimit(perSecond: 1, burst: 10)
        }
    }

    /// The words used in error messages ("too many reactions").
    public var noun: String {
        switch self {
        case .messages: "messages"
        case .reactions: "reactions"
        case .edits: "edits"
        case .deletes: "deletions"
        case .typing: "typing notices"
        case .rooms: "room changes"
        case .memberships: "membership changes"
        case .uploads: "uploads"
        case .cursors: "cursor updates"
        case .documents: "new documents"
        }
    }
}
