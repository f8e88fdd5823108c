/// What an audit entry records: the action, its actor, target and reason.
public struct NewAuditEntry: Sendable, Hashable {
    /// The action's stable name (`ban`, `mute`, `message_deleted`, `role_changed`…).
    public var action: String
    /// Who acted (nil: an app-level call).
    public var actorID: String?
    /// The user acted on, if any.
    public var targetUserID: String?
    /// The message acted on, if any.
    public var targetMessageID: Int64?
    /// Why, as the actor wrote it.
    public var reason: String?
    /// More about the action as JSON text (a new role, an expiry, a slow-mode setting).
    public var detail: String?

    /// Creates a value.
    public init(
        action: String, actorID: String?, targetUserID: String? = nil, targetMessageID: Int64? = nil, reason: String? = nil,
        detail: String? = nil
    ) {
        self.action = action
        self.actorID = actorID
        self.targetUserID = targetUserID
        self.targetMessageID = targetMessageID
        self.reason = reason
        self.detail = detail
    }
}
