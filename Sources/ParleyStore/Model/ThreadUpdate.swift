/// A thread root's counters right after a reply was stored, for the `thread.updated` event.
public struct ThreadUpdate: Sendable, Hashable {
    /// The root message's id.
    public var rootID: Int64
    /// Its replies, the new one included.
    public var replyCount: Int
    /// The last repliers, newest first, at most three.
    public var lastReplierIDs: [String]

    /// Creates a value.
    public init(rootID: Int64, replyCount: Int, lastReplierIDs: [String]) {
        self.rootID = rootID
        self.replyCount = replyCount
        self.lastReplierIDs = lastReplierIDs
    }
}
