/// Moderation's persistence: slow mode, mutes and bans, the audit log, flags and user blocks.
///
/// Like `ChatStore`, every method takes the app id first and permission rules stay with the
/// chat service. Each change that is a moderation action writes its audit entry in the same
/// transaction, so the log never misses a committed action.
public protocol ModerationStore: Sendable {
    /// The room's slow mode and restrictions (expired ones too); `notFound` for an unknown room.
    func moderation(app: String, room: String) async throws -> RoomModeration
    /// Sets the room's slow mode and records `audit`; returns the previous setting.
    func setSlowMode(app: String, room: String, seconds: Int, audit: NewAuditEntry) async throws -> Int
    /// Imposes (or replaces) a restriction and records `audit`. A ban also ends the user's
    /// membership (`lastAdmin` as for `removeMember`); returns whether a membership ended.
    func restrict(app: String, _ restriction: RoomRestriction, audit: NewAuditEntry) async throws -> Bool
    /// Lifts the user's restriction of `kind` and records `audit`; false when there was none.
    func liftRestriction(
        app: String, room: String, user: String, kind: RoomRestriction.Kind, audit: NewAuditEntry
    ) async throws -> Bool
    /// Ends a membership as `removeMember` does and records `audit`; false when the user was not a member.
    func kick(app: String, room: String, user: String, audit: NewAuditEntry) async throws -> Bool
    /// Records an action whose change another store call made.
    func recordAudit(app: String, room: String, _ entry: NewAuditEntry) async throws
    /// The room's audit log, newest first, entries with ids below `before`, at most `limit`.
    func auditLog(app: String, room: String, before: Int64?, limit: Int) async throws -> [AuditEntry]
    /// Flags a message; a second flag of the same message by the same user returns the first
    /// (`created` false). `notFound` when the room has no such message.
    func flagMessage(
        app: String, room: String, message: Int64, flagger: String, reason: String?
    ) async throws -> (flag: MessageFlag, created: Bool)
    /// Flags by ascending id after `after`, of one room or (nil) every room, at most `limit`.
    func flags(app: String, room: String?, state: MessageFlag.State, after: Int64?, limit: Int) async throws -> [MessageFlag]
    /// One flag; `notFound` if there is none.
    func flag(app: String, id: Int64) async throws -> MessageFlag
    /// Resolves a flag (again: the note and resolver are replaced) and records `audit`.
    func resolveFlag(app: String, id: Int64, resolution: String?, audit: NewAuditEntry) async throws -> MessageFlag
    /// Records that `blocker` blocks `blocked`; false when it already did.
    func block(app: String, blocker: String, blocked: String) async throws -> Bool
    /// Forgets a block; false when there was none.
    func unblock(app: String, blocker: String, blocked: String) async throws -> Bool
    /// Whom `blocker` blocks, by id.
    func blockedUsers(app: String, blocker: String) async throws -> [String]
    /// Whether either user blocks the other.
    func blocks(app: String, between first: String, and second: String) async throws -> Bool
    /// Per message (by seq, of `seqs` in `room`), the reaction counts of the users `blocker`
    /// blocks: what the blocker's view takes off each message's counts. Messages without any are left out.
    func blockedReactionCounts(app: String, blocker: String, room: String, seqs: [Int64]) async throws -> [Int64: [ReactionCount]]
    /// A member's role and the time of their last send slow mode counted (nil: none); nil when
    /// `user` is not a member. Sends are paced in their own transaction (``SendPace``); this
    /// read lets the service refuse an early send before it reaches the app's before-send hook.
    func paceStanding(app: String, room: String, user: String) async throws -> (role: MemberRole, lastSentAt: Int64?)?
}
