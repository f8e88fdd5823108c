import ParleyWireCore

/// One message a search found, with how well it matched and where.
public struct SearchResult: Sendable, Hashable, Identifiable {
    /// The message, as history shows it.
    public var message: ChatMessage
    /// The relevance the server gave it; higher ranks first. Comparable within one answer only.
    public var score: Double
    /// The matches in the message's parts, in the server's order.
    public var highlights: [SearchHighlight]

    /// The message's id.
    public var id: Int64 { message.id }

    /// Creates a result.
    public init(message: ChatMessage, score: Double, highlights: [SearchHighlight]) {
        self.message = message
        self.score = score
        self.highlights = highlights
    }

    /// Reads the API's form: `{"message":{…},"score":2.7,"highlights":[…]}`.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "search.result")
        guard let score = r.value("score")?.doubleValue else {
            throw ParleyError(.decoding, "search.result: missing or mistyped field score")
        }
        var highlights: [SearchHighlight] = []
        for item in try r.arrayIfPresent("highlights") { highlights.append(try SearchHighlight(json: item)) }
        self.init(message: try ChatMessage(json: r.value("message")), score: score, highlights: highlights)
    }

    /// The API's form.
    public var json: JSONValue {
        .object(["message": message.json, "score": .number(String(score)), "highlights": .array(highlights.map(\.json))])
    }

    /// The searchable text of part `index` (a text part's text, a file part's name), nil for
    /// other parts and indexes out of range.
    public func partText(_ index: Int) -> String? {
        guard message.parts.indices.contains(index) else { return nil }
        return SearchHighlight.searchableText(of: message.parts[index])
    }

    /// A highlight as a range of its part's text (see ``partText(_:)``), nil when it does not
    /// fit that text.
    public func range(of highlight: SearchHighlight) -> Range<String.Index>? {
        partText(highlight.part).flatMap { highlight.range(in: $0) }
    }

    /// The matched text of each highlight that fits its part, in order (`["Lunch", "lunch"]`).
    public var matchedTexts: [String] {
        highlights.compactMap { highlight in
            guard let text = partText(highlight.part), let range = highlight.range(in: text) else { return nil }
            return String(text[range])
        }
    }

    /// The ranges of part `index`'s text to highlight, ascending and without overlaps.
    public func ranges(inPart index: Int) -> [Range<String.Index>] {
        guard let text = partText(index) else { return [] }
        let sorted = highlights.filter { $0.part == index }.compactMap { $0.range(in: text) }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<String.Index>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
