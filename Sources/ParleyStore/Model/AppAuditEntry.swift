import ParleyWireCore

/// One row of the app-level audit log.
public struct AppAuditEntry: Sendable, Hashable {
    /// Ascending id, the paging cursor.
    public var id: Int64
    /// When, milliseconds since the Unix epoch.
    public var at: Int64
    /// Who: `app` for the app's credentials, else `user:{id}`.
    public var actor: String
    /// What: `user.export` or `user.erase`.
    public var action: String
    /// Whom: the user id acted on.
    public var target: String
    /// Details as a JSON object's text (counts, mode), if any.
    public var detail: String?

    /// Creates an entry.
    public init(id: Int64 = 0, at: Int64 = 0, actor: String, action: String, target: String, detail: String? = nil) {
        self.id = id
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.detail = detail
    }

    /// The API's form (`detail` as an object; `{}` when there is none).
    public var json: JSONValue {
        let detailValue = detail.flatMap { try? JSONParser.parse($0) } ?? .object([:])
        return .object([
            "id": .int64(id), "at": .int64(at), "actor": .string(actor), "action": .string(action),
            "target": .string(target), "detail": detailValue
        ])
    }
}
