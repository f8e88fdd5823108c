import ParleyWireCore

/// One message a search found, with where it matches.
public struct SearchHit: Sendable, Hashable {
    /// The message (its `roomID` names the room).
    public var message: ChatMessage
    /// The matching ranges of its text parts, in order.
    public var highlights: [SearchHighlight]

    /// Creates a hit.
    public init(message: ChatMessage, highlights: [SearchHighlight]) {
        self.message = message
        self.highlights = highlights
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "search hit")
        var highlights: [SearchHighlight] = []
        for item in try r.array("highlights") { highlights.append(try SearchHighlight(json: item)) }
        self.init(message: try ChatMessage(json: r.value("message")), highlights: highlights)
    }

    /// The API's form.
    public var json: JSONValue {
        .object(["message": message.json, "highlights": .array(highlights.map(\.json))])
    }
}
