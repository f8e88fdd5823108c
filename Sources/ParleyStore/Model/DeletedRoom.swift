/// A room that was deleted, with what the caller needs to clean up and notify.
public struct DeletedRoom: Sendable, Equatable {
    /// The room as it was just before deletion.
    public var room: Room
    /// Its members at deletion time (to send them `room.removed`).
    public var memberIDs: [String]
    /// Its attachments' metadata, whose files the caller should remove.
    public var attachments: [StoredAttachment]

    /// Creates a value.
    public init(room: Room, memberIDs: [String], attachments: [StoredAttachment]) {
        self.room = room
        self.memberIDs = memberIDs
        self.attachments = attachments
    }
}
