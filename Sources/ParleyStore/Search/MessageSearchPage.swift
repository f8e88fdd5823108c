/// A page of search hits, best first.
public struct MessageSearchPage: Sendable, Hashable {
    /// The hits, by descending score, newer first among equal scores.
    public var hits: [MessageSearchHit]
    /// The offset of the next page, or nil when this page holds the last ranked hit.
    public var nextOffset: Int?

    /// A page of `hits`, followed by another at `nextOffset` when there is one.
    public init(hits: [MessageSearchHit], nextOffset: Int?) {
        self.hits = hits
        self.nextOffset = nextOffset
    }
}
