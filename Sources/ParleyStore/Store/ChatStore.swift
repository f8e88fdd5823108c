/// The chat service's persistence: users, rooms, memberships, messages, reactions,
/// attachments and read cursors, each scoped to an app.
///
/// Every method takes the app id first; nothing crosses apps. Every write is durable when
/// the method returns. Errors are `StoreError`s: `notFound` for a missing user, room, message
/// or attachment of that app, `notMember` when a room operation needs membership,
/// `alreadyExists` for a duplicate id, `invalidArgument` for a limit broken, `conflict` for
/// a change the row's state forbids. Permission rules (who may edit, delete, add members…)
/// belong to the chat service, not to the store.
///
/// Unread counts count messages after the member's cursor that other users sent and that
/// are not deleted, thread-only replies excluded; unread mentions count the messages after the
/// cursor that mention the member. Sending a message moves the sender's cursor to it, and joining a room
/// starts the cursor at the room's newest message (history is readable, but not unread).
public protocol ChatStore: ModerationStore, Sendable {
    // MARK: Users

    /// Creates a user; `alreadyExists` if the id is taken in this app.
    func createUser(app: String, _ user: NewUser) async throws -> ChatUser
    /// Changes the fields the patch sets; `notFound` for an unknown user.
    func updateUser(app: String, id: String, _ patch: UserPatch) async throws -> ChatUser
    /// The user with `id`; `notFound` if there is none.
    func user(app: String, id: String) async throws -> ChatUser
    /// Users by ascending id, starting after `after`, at most `limit`.
    func users(app: String, after: String?, limit: Int) async throws -> [ChatUser]
    /// Like `users(app:after:limit:)`, but only `user` and the users who share a room with them.
    func users(app: String, sharingRoomsWith user: String, after: String?, limit: Int) async throws -> [ChatUser]
    /// Deletes a user and their memberships (their messages stay); `notFound` if unknown.
    /// In the same transaction the user's token cutoff moves to now (see `tokensValidAfter`).
    func deleteUser(app: String, id: String) async throws -> ChatUser
    /// The time (milliseconds since the epoch) before which tokens of `userID` were issued
    /// too early to be honoured, or nil when none was ever set. Kept after the user is deleted,
    /// so a deleted user's tokens stay refused when the id is created again.
    func tokensValidAfter(app: String, user userID: String) async throws -> Int64?

    // MARK: Rooms

    /// Creates a public or private room; the creator becomes admin, `memberIDs` members.
    /// `alreadyExists` for a taken id, `retired` for the id of a deleted room.
    func createRoom(app: String, _ room: NewRoom) async throws -> Room
    /// The direct room of two users, created (both as members) if it does not exist yet.
    func createDirectRoom(app: String, between first: String, and second: String) async throws -> DirectRoomResult
    /// The room with `id`; `notFound` if there is none.
    func room(app: String, id: String) async throws -> Room
    /// Public rooms by ascending id, starting after `after`, at most `limit`.
    func publicRooms(app: String, after: String?, limit: Int) async throws -> [Room]
    /// Changes a room's name, custom data or public/private kind.
    func updateRoom(app: String, id: String, _ patch: RoomPatch) async throws -> Room
    /// Deletes a room with its memberships, messages, reactions and attachment records. The id
    /// is retired: creating a room with it again fails with `retired`.
    func deleteRoom(app: String, id: String) async throws -> DeletedRoom

    // MARK: Members

    /// Makes `userID` a member with `role`; an existing member keeps their role (`changed` false).
    func addMember(app: String, room: String, user userID: String, role: MemberRole) async throws -> MembershipChange
    /// Ends a membership; returns false if the user was not a member; `lastAdmin` when the user
    /// is the room's only admin and other members remain.
    func removeMember(app: String, room: String, user userID: String) async throws -> Bool
    /// Changes a member's role; `notMember` if the user is not a member; `lastAdmin` when that
    /// would demote the room's only admin while other members remain. When the role changes,
    /// `audit` (given the role before, read in the same transaction) is recorded in the room's
    /// audit log in the change's own transaction; a no-op records nothing.
    func setRole(
        app: String, room: String, user userID: String, role: MemberRole,
        audit: (@Sendable (_ from: MemberRole) -> NewAuditEntry)?
    ) async throws -> MembershipChange
    /// The user's membership of the room, or nil if they are not a member.
    func membership(app: String, room: String, user userID: String) async throws -> Membership?
    /// Members by ascending user id, starting after `after`, at most `limit`; `notFound` for an unknown room.
    func members(app: String, room: String, after: String?, limit: Int) async throws -> [Membership]

    // MARK: Messages

    /// Appends a message with the room's next seq; a retry with the same client id returns the original.
    func appendMessage(app: String, room: String, _ message: NewMessage) async throws -> AppendResult
    /// One message; `notFound` if the room has no message with that id.
    func message(app: String, room: String, id: Int64) async throws -> Message
    /// A page of history, tombstones included, in ascending seq order. Thread replies sent to
    /// the thread only are left out (their seqs are gaps in the page).
    func history(app: String, room: String, _ query: HistoryQuery) async throws -> [Message]
    /// A page of a thread's replies (not the root), paged like history; `notFound` when the room
    /// has no message `parent`.
    func replies(app: String, room: String, parent: Int64, _ query: HistoryQuery) async throws -> [Message]
    /// Replaces a message's parts (its seq stays); `conflict` for a deleted message.
    func editMessage(app: String, room: String, id: Int64, parts: [MessagePart]) async throws -> Message
    /// Turns a message into a tombstone (parts and reactions removed, seq kept); deleting twice is harmless.
    /// `audit` is recorded in the room's audit log in the delete's own transaction, only when
    /// this call deleted the message (not when it was already a tombstone).
    func deleteMessage(app: String, room: String, id: Int64, audit: NewAuditEntry?) async throws -> Message

    // MARK: Reactions

    /// Adds `user`'s reaction with `emoji`; `notMember` for non-members, `conflict` on a deleted message,
    /// `limitReached` when the message already has `maxDistinct` other emoji (nil: no cap).
    func addReaction(
        app: String, room: String, message id: Int64, user userID: String, emoji: String,
        maxDistinct: Int?
    ) async throws -> ReactionChange
    /// Removes `user`'s reaction with `emoji`.
    func removeReaction(app: String, room: String, message id: Int64, user userID: String, emoji: String) async throws -> ReactionChange

    // MARK: Attachments

    /// Records an uploaded file; the uploader must be a member of the room. With `quotaBytes`,
    /// `limitReached` when the app's attachments (files and thumbnails) would then hold more bytes than that.
    func createAttachment(app: String, _ attachment: NewAttachment, quotaBytes: Int64?) async throws -> StoredAttachment
    /// The bytes of every attachment the app holds, their thumbnails included.
    func attachmentBytes(app: String) async throws -> Int64
    /// An attachment's metadata; `notFound` if there is none.
    func attachment(app: String, id: String) async throws -> StoredAttachment
    /// Forgets an attachment and returns its metadata (the caller removes the file).
    func deleteAttachment(app: String, id: String) async throws -> StoredAttachment

    // MARK: Read cursors and room lists

    /// Moves a member's read cursor forward to `seq` (clamped to the room's last seq); never backwards.
    func setReadCursor(app: String, room: String, user userID: String, seq: Int64) async throws -> CursorChange
    /// Every member's cursor in the room, by user id.
    func readCursors(app: String, room: String) async throws -> [ReadCursor]
    /// The user's rooms, most recent activity first, with last message, unread and member counts.
    func roomSummaries(app: String, user userID: String, limit: Int) async throws -> [RoomSummary]
    /// One entry of the user's room list; `notMember` if the user is not in the room.
    func roomSummary(app: String, room: String, user userID: String) async throws -> RoomSummary

    // MARK: Push device tokens

    /// Stores a push token for the user (taking it from whoever had it); `notFound` without the user.
    func registerDevice(app: String, user userID: String, token: String, platform: String) async throws -> DeviceToken
    /// Removes the user's token; false when the user had no such token.
    func removeDevice(app: String, user userID: String, token: String) async throws -> Bool
    /// The user's tokens, by token; `notFound` without the user.
    func devices(app: String, user userID: String) async throws -> [DeviceToken]
}
