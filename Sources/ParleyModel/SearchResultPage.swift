import ParleyWireCore

/// A page of search results, best first: `{"results":[…],"next_offset":20}`.
public struct SearchResultPage: Sendable, Hashable {
    /// The results, best match first.
    public var results: [SearchResult]
    /// The offset that reads the next page, nil on the last one.
    public var nextOffset: Int?

    /// Creates a page.
    public init(results: [SearchResult], nextOffset: Int?) {
        self.results = results
        self.nextOffset = nextOffset
    }

    /// Whether more results follow this page.
    public var hasMore: Bool { nextOffset != nil }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "search")
        var results: [SearchResult] = []
        for item in try r.array("results") { results.append(try SearchResult(json: item)) }
        self.init(results: results, nextOffset: try r.int64IfPresent("next_offset").map { Int($0) })
    }

    /// The API's form.
    public var json: JSONValue {
        .object(["results": .array(results.map(\.json)), "next_offset": .optional(nextOffset)])
    }
}
