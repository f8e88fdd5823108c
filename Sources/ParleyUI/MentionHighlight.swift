import ParleyKit

/// Splits message text at its resolved mentions, for screens that highlight them.
///
/// Only ids the server resolved (``ChatMessage/mentions``) are mentions: an `@word` that named
/// no member stays plain text, exactly as the server decided when the message was sent.
public enum MentionHighlight {
    /// A run of text: plain, or one `@id` mention.
    public struct Segment: Sendable, Hashable {
        /// The text of the run (with the `@` for a mention).
        public var text: String
        /// The mentioned user id, nil for plain text.
        public var userID: String?

        /// Creates a segment.
        public init(_ text: String, userID: String? = nil) {
            self.text = text
            self.userID = userID
        }
    }

    /// The resolved mentions in `text`, in order.
    public static func matches(in text: String, mentions: [String]) -> [MentionSyntax.Match] {
        guard !mentions.isEmpty else { return [] }
        return MentionSyntax.matches(in: text).filter { mentions.contains($0.userID) }
    }

    /// `text` cut into plain runs and mentions; joined they give `text` back.
    public static func segments(_ text: String, mentions: [String]) -> [Segment] {
        var segments: [Segment] = []
        var index = text.startIndex
        for match in matches(in: text, mentions: mentions) {
            if index < match.range.lowerBound { segments.append(Segment(String(text[index..<match.range.lowerBound]))) }
            segments.append(Segment(String(text[match.range]), userID: match.userID))
            index = match.range.upperBound
        }
        if index < text.endIndex { segments.append(Segment(String(text[index...]))) }
        return segments
    }
}
