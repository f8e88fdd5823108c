import ParleyWireCore

/// Where a search hit's text matches the query: a range of one text part of the message.
///
/// Offsets count UTF-16 code units (as JavaScript strings, `NSString` and `String.utf16` do),
/// from the start of the part's text; `end` is exclusive.
public struct SearchHighlight: Sendable, Hashable {
    /// The index of the text part in the message's `parts`.
    public var part: Int
    /// The first UTF-16 offset of the match.
    public var start: Int
    /// The UTF-16 offset just after the match.
    public var end: Int

    /// Creates a highlight.
    public init(part: Int, start: Int, end: Int) {
        self.part = part
        self.start = start
        self.end = end
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "highlight")
        self.init(part: try r.int("part"), start: try r.int("start"), end: try r.int("end"))
    }

    /// The API's form.
    public var json: JSONValue {
        .object(["part": .int64(Int64(part)), "start": .int64(Int64(start)), "end": .int64(Int64(end))])
    }

    /// The highlighted text within `text` (the part's text), or nil when the range does not fit it.
    public func matched(in text: String) -> String? {
        let units = Array(text.utf16)
        guard start >= 0, start <= end, end <= units.count else { return nil }
        return String(decoding: units[start..<end], as: UTF16.self)
    }
}
