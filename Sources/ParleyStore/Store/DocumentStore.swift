/// The documents service's persistence: document metadata and access, and each document's
/// content as a snapshot plus an append-only log of Yjs updates, all scoped to an app.
///
/// Every write is durable when the method returns (it goes through the group-commit
/// writer). Errors are `StoreError`s: `notFound` for an unknown document (or owner room),
/// `alreadyExists` for a taken id or a taken name in the same scope, `invalidArgument` for a
/// limit broken, `conflict` for a compaction that does not match the log. The store does
/// not look inside updates; validating them is the service's job.
public protocol DocumentStore: Sendable {
    /// Creates a document; the creator joins the access list of a document without owner room.
    func createDocument(app: String, _ document: NewDocument) async throws -> DocumentInfo
    /// The document with `id`; `notFound` if there is none.
    func document(app: String, id: String) async throws -> DocumentInfo
    /// The document called `name` owned by `ownerRoom` (nil: among access-list documents), or nil.
    func document(app: String, named name: String, ownerRoom: String?) async throws -> DocumentInfo?
    /// The documents a room owns, by ascending id, after `after`, at most `limit`.
    func documents(app: String, ownerRoom: String, after: String?, limit: Int) async throws -> [DocumentInfo]
    /// The access-list documents `user` is on, by ascending id, after `after`, at most `limit`.
    func documents(app: String, accessibleTo user: String, after: String?, limit: Int) async throws -> [DocumentInfo]
    /// Replaces the access list of a document (meaningful for documents without owner room).
    func setAccessList(app: String, id: String, users: [String]) async throws -> DocumentInfo
    /// Deletes a document with its content; `notFound` if there is none.
    func deleteDocument(app: String, id: String) async throws -> DocumentInfo

    /// Appends updates to the log in order, in one transaction, and returns the log's state.
    ///
    /// With `snapshot`, the same transaction then compacts: the snapshot (which must cover
    /// everything stored plus these updates) replaces the whole log.
    func appendUpdates(app: String, id: String, _ updates: [[UInt8]], snapshot: [UInt8]?) async throws -> DocumentAppendResult
    /// Replaces the snapshot and every logged update up to `throughSeq` by `snapshot`, which
    /// must be their merge; `conflict` if `throughSeq` is beyond the log or before the snapshot.
    func compact(app: String, id: String, snapshot: [UInt8], throughSeq: Int64) async throws -> DocumentAppendResult
    /// The snapshot and the log after it.
    func content(app: String, id: String) async throws -> DocumentContent
}
