import ParleyKit

/// Everything a search screen shows, as one value.
public struct SearchSnapshot: Sendable, Equatable {
    /// The query the results are for ("" before the first search).
    public var query: String
    /// The room searched, nil for all the user's rooms.
    public var roomID: String?
    /// The results loaded so far, best first.
    public var results: [SearchResultRow]
    /// Whether a page is being read (the first one for a new query, or the next one).
    public var isLoading: Bool
    /// Whether another page can be loaded (``SearchModel/loadMore()``).
    public var hasMore: Bool
    /// Why the last search failed, for a notice; nil when it did not.
    public var error: String?

    /// Whether a finished search found nothing.
    public var isEmpty: Bool { !query.isEmpty && !isLoading && error == nil && results.isEmpty }
}
