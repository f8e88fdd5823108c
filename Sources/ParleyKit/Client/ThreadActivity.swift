import ParleyWireCore

/// A thread got a new reply: the root's new reply count and last repliers (the room channel's
/// `thread.updated` event), so screens update the root's "N replies" without reading it again.
public struct ThreadActivity: Sendable, Hashable {
    /// The room.
    public var roomID: String
    /// The thread's root message.
    public var rootID: Int64
    /// The root's replies, the new one included (deleted replies stay counted).
    public var replyCount: Int
    /// The last repliers, newest first, at most three.
    public var lastReplierIDs: [String]
    /// The new reply's id.
    public var replyID: Int64
    /// The new reply's seq in the room.
    public var replySeq: Int64

    /// Creates a value.
    public init(roomID: String, rootID: Int64, replyCount: Int, lastReplierIDs: [String], replyID: Int64, replySeq: Int64) {
        self.roomID = roomID
        self.rootID = rootID
        self.replyCount = replyCount
        self.lastReplierIDs = lastReplierIDs
        self.replyID = replyID
        self.replySeq = replySeq
    }

    /// Reads the event's data.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "thread.updated")
        var repliers: [String] = []
        for value in try r.arrayIfPresent("last_replier_ids") {
            guard let id = value.stringValue else { throw ParleyError(.decoding, "thread.updated: last_replier_ids holds a non-string") }
            repliers.append(id)
        }
        self.init(
            roomID: try r.string("room_id"), rootID: try r.int64("message_id"), replyCount: Int(try r.int64("reply_count")),
            lastReplierIDs: repliers, replyID: try r.int64("reply_id"), replySeq: try r.int64("reply_seq"))
    }

    /// The event's data.
    public var json: JSONValue {
        .object([
            "room_id": .string(roomID), "message_id": .int64(rootID), "reply_count": .int(replyCount),
            "last_replier_ids": .array(lastReplierIDs.map { .string($0) }), "reply_id": .int64(replyID), "reply_seq": .int64(replySeq)
        ])
    }

    /// `root` with this activity's counters, when it is this thread's root.
    public func applied(to root: ChatMessage) -> ChatMessage {
        guard root.id == rootID else { return root }
        var updated = root
        updated.replyCount = max(root.replyCount, replyCount)
        if replyCount >= root.replyCount { updated.lastReplierIDs = lastReplierIDs }
        return updated
    }
}
