import ParleyKit

/// What `/search TEXT` found, shown over the list or the conversation until a key is pressed.
public struct SearchResults: Sendable, Equatable {
    /// The text searched for.
    public var query: String
    /// The hits, best first.
    public var hits: [SearchHit]
    /// Whether more hits exist than are shown.
    public var hasMore: Bool

    /// Creates the results of one search.
    public init(query: String, hits: [SearchHit], hasMore: Bool) {
        self.query = query
        self.hits = hits
        self.hasMore = hasMore
    }
}
