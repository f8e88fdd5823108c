import ParleyWireCore

/// Where a search matched inside a result's message: one word of one part, as UTF-16 offsets
/// (`{"part":0,"start":4,"end":9}`), the unit the server's tokenizer counts in.
public struct SearchHighlight: Sendable, Hashable, Codable {
    /// The index of the part in ``ChatMessage/parts``: a text part's text, or a file part's name.
    public var part: Int
    /// The first UTF-16 offset of the match in that text.
    public var start: Int
    /// The UTF-16 offset just past the match.
    public var end: Int

    /// Creates a highlight.
    public init(part: Int, start: Int, end: Int) {
        self.part = part
        self.start = start
        self.end = end
    }

    /// The match as a range of UTF-16 offsets.
    public var utf16Range: Range<Int> { start..<max(start, end) }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "search.highlight")
        self.init(part: try r.int("part"), start: try r.int("start"), end: try r.int("end"))
    }

    /// The API's form.
    public var json: JSONValue { .object(["part": .int(part), "start": .int(start), "end": .int(end)]) }

    /// The searchable text of `part`: a text part's text, a file part's name, nil for others.
    public static func searchableText(of part: MessagePart) -> String? {
        switch part {
        case .text(let text): text
        case .file(let file): file.name
        case .attachment, .url: nil
        }
    }

    /// The match as a range of `text` (the part's searchable text), nil when the offsets fall
    /// outside it or inside a character (a server that tokenized other text).
    public func range(in text: String) -> Range<String.Index>? {
        let utf16 = text.utf16
        guard start >= 0, start <= end, end <= utf16.count else { return nil }
        let lower = utf16.index(utf16.startIndex, offsetBy: start)
        let upper = utf16.index(utf16.startIndex, offsetBy: end)
        guard let from = lower.samePosition(in: text), let to = upper.samePosition(in: text) else { return nil }
        return from..<to
    }
}
