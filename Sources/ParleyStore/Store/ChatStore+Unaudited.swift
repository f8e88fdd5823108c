/// The audited writes without an audit entry (the owner's own actions, tools, tests).
extension ChatStore {
    /// Turns a message into a tombstone without recording an audit entry.
    public func deleteMessage(app: String, room: String, id: Int64) async throws -> Message {
        try await deleteMessage(app: app, room: room, id: id, audit: nil)
    }

    /// Changes a member's role without recording an audit entry.
    public func setRole(app: String, room: String, user userID: String, role: MemberRole) async throws -> MembershipChange {
        try await setRole(app: app, room: room, user: userID, role: role, audit: nil)
    }
}
