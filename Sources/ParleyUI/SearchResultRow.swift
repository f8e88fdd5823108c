import ParleyKit

/// One search result as a results screen shows it: where and by whom, and the message's
/// searchable text (text parts, then file names, one per line) with the matches marked.
public struct SearchResultRow: Sendable, Equatable, Identifiable {
    /// A run of ``text``: matched or not.
    public struct Segment: Sendable, Hashable {
        /// The run's text.
        public var text: String
        /// Whether the search matched this run.
        public var isMatch: Bool

        /// Creates a segment.
        public init(_ text: String, isMatch: Bool = false) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    /// The message's id.
    public var id: Int64
    /// The room.
    public var roomID: String
    /// The room's name (the direct partner's name, else its id).
    public var roomTitle: String
    /// The message's place in its room.
    public var seq: Int64
    /// The author's id.
    public var senderID: String
    /// The author's display name.
    public var senderName: String
    /// When it was written, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// The searchable text: text parts, then file names, joined by newlines.
    public var text: String
    /// The matches as ranges of ``text``, ascending, not overlapping.
    public var highlightRanges: [Range<String.Index>]
    /// The relevance the server gave it.
    public var score: Double
    /// The result as the server sent it.
    public var result: SearchResult

    /// ``text`` cut into plain and matched runs; joined they give ``text`` back.
    public var segments: [Segment] {
        var segments: [Segment] = []
        var index = text.startIndex
        for range in highlightRanges {
            if index < range.lowerBound { segments.append(Segment(String(text[index..<range.lowerBound]))) }
            segments.append(Segment(String(text[range]), isMatch: true))
            index = range.upperBound
        }
        if index < text.endIndex { segments.append(Segment(String(text[index...]))) }
        return segments
    }

    /// The matched words, in order.
    public var matchedTexts: [String] { highlightRanges.map { String(text[$0]) } }
}

extension SearchResultRow {
    /// A row for `result`, with names looked up in `names` (ids when unknown).
    init(_ result: SearchResult, roomTitle: String, names: [String: String]) {
        let message = result.message
        var text = ""
        var ranges: [Range<String.Index>] = []
        for index in message.parts.indices {
            guard let partText = result.partText(index) else { continue }
            if !text.isEmpty { text += "\n" }
            // Offsets into the joined text: counted in characters of the part, which lines up
            // because a newline never merges with the characters around it.
            let base = text.count
            text += partText
            for range in result.ranges(inPart: index) {
                let lower = partText.distance(from: partText.startIndex, to: range.lowerBound) + base
                let length = partText.distance(from: range.lowerBound, to: range.upperBound)
                let start = text.index(text.startIndex, offsetBy: lower)
                ranges.append(start..<text.index(start, offsetBy: length))
            }
        }
        self.init(
            id: message.id, roomID: message.roomID, roomTitle: roomTitle, seq: message.seq, senderID: message.senderID,
            senderName: names[message.senderID] ?? message.senderID, createdAt: message.createdAt, text: text,
            highlightRanges: ranges, score: result.score, result: result)
    }
}
