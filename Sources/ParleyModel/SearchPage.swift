import ParleyWireCore

/// A page of search results, best match first: `{"hits":[…],"next_cursor":"…"|null}`.
public struct SearchPage: Sendable, Hashable {
    /// The hits of this page.
    public var hits: [SearchHit]
    /// Pass as `cursor` for the next page; nil on the last page. Opaque.
    public var nextCursor: String?

    /// Creates a page.
    public init(hits: [SearchHit], nextCursor: String?) {
        self.hits = hits
        self.nextCursor = nextCursor
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "search results")
        var hits: [SearchHit] = []
        for item in try r.array("hits") { hits.append(try SearchHit(json: item)) }
        self.init(hits: hits, nextCursor: try r.stringIfPresent("next_cursor"))
    }

    /// The API's form.
    public var json: JSONValue {
        .object(["hits": .array(hits.map(\.json)), "next_cursor": .optional(nextCursor)])
    }
}
