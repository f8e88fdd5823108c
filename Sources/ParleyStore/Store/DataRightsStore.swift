/// A user's data rights over the store: export what they wrote, erase it, and the app-level
/// audit log both write to. `SQLChatStore` implements it on both engines.
public protocol DataRightsStore: Sendable {
    /// A page of the user's data: the first (`after` nil) with everything but messages too;
    /// then up to `limit` of their messages with ids above `after`. Works for a deleted user.
    func exportPage(app: String, user: String, after: Int64?, limit: Int) async throws -> UserExportPage
    /// Erases the user in one transaction (idempotent: a repeat changes nothing but the log)
    /// and records `audit` with it.
    func eraseUser(app: String, user: String, mode: ErasureMode, audit: AppAuditEntry) async throws -> UserErasure
    /// Appends an audit entry; returns it with its id and time.
    func recordAudit(app: String, _ entry: AppAuditEntry) async throws -> AppAuditEntry
    /// Audit entries with ids above `after`, oldest first.
    func auditLog(app: String, after: Int64, limit: Int) async throws -> [AppAuditEntry]
}
