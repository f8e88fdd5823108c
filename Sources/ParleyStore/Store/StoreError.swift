/// A storage failure with a stable, documented code.
///
/// Codes never change meaning; the chat service maps them to HTTP answers
/// (for example `notFound` to 404, `alreadyExists` and `conflict` to 409).
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable machine-readable kind of a storage failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The addressed row (user, room, message, attachment…) does not exist in this app.
        case notFound = "not_found"
        /// A row with the same key already exists (a unique or primary-key violation).
        case alreadyExists = "already_exists"
        /// A row refers to another row that does not exist (a foreign-key violation).
        case foreignKeyViolation = "foreign_key_violation"
        /// Any other integrity constraint (check, not-null) rejected the write.
        case constraintViolation = "constraint_violation"
        /// The write contradicts the row's current state (for example editing a deleted message).
        case conflict
        /// An argument breaks a documented limit (custom data too large, too many parts…).
        case invalidArgument = "invalid_argument"
        /// The user is not a member of the room the operation needs membership of.
        case notMember = "not_member"
        /// The change would leave a room with members but no admin (the last admin leaving or demoted).
        case lastAdmin = "last_admin"
        /// The database was migrated by a newer Parley; this build refuses to touch it.
        case schemaTooNew = "schema_too_new"
        /// The database stayed locked by someone else for longer than the busy timeout.
        case busy
        /// The operating system failed to read or write the database (disk full, I/O error).
        case io
        /// The database file is damaged.
        case corrupt
        /// The connection to the database server was lost or could not be made.
        case connectionLost = "connection_lost"
        /// The store was closed before the operation could run.
        case closed
        /// A statement failed for a reason not covered above (a bug or an unexpected server answer).
        case `internal`
        /// The id belonged to a row that was deleted and is never given out again (room ids).
        case retired
        /// A configured cap on a row would be passed (too many different reactions on a message).
        case limitReached = "limit_reached"
        /// A reply names a parent message the room does not have.
        case parentNotFound = "parent_not_found"
        /// A reply names a deleted parent (or a reply whose thread root is deleted).
        case parentDeleted = "parent_deleted"
        /// A message quotes a message the room does not have.
        case quotedNotFound = "quoted_not_found"
        /// A message quotes a deleted message.
        case quotedDeleted = "quoted_deleted"
        /// A paced send came too early (slow mode); ``StoreError/retryAfterSeconds`` says when to try again.
        case slowMode = "slow_mode"
    }

    /// The stable kind of the failure.
    public var code: Code
    /// A human-readable explanation; not stable, for logs and error bodies.
    public var message: String
    /// For `slowMode`: the whole seconds until the send would be allowed.
    public var retryAfterSeconds: Int64?

    /// Creates an error of the given kind.
    public init(_ code: Code, _ message: String, retryAfterSeconds: Int64? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The code and message together, for logs.
    public var description: String { "\(code.rawValue): \(message)" }
}
