/// The capped writes without their caps (tools, tests).
extension ChatStore {
    /// Records an uploaded file with no storage quota.
    public func createAttachment(app: String, _ attachment: NewAttachment) async throws -> StoredAttachment {
        try await createAttachment(app: app, attachment, quotaBytes: nil)
    }

    /// Adds `user`'s reaction with `emoji`, with no cap on a message's different emoji.
    public func addReaction(app: String, room: String, message id: Int64, user userID: String, emoji: String) async throws -> ReactionChange
    {
        try await addReaction(app: app, room: room, message: id, user: userID, emoji: emoji, maxDistinct: nil)
    }
}
