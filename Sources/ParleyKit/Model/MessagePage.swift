/// A page of a room's history, ascending by seq.
public struct MessagePage: Sendable, Equatable, Codable {
    /// The messages, ascending by seq.
    public var messages: [ChatMessage]
    /// Whether more lie beyond the far end (older for latest/before pages, newer for after pages).
    public var hasMore: Bool

    /// Creates a page.
    public init(messages: [ChatMessage], hasMore: Bool) {
        self.messages = messages
        self.hasMore = hasMore
    }
}
