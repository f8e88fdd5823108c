import ParleyStore
import ParleyWire

/// Where a search hit's message shows a query word: a part and a range of it in UTF-16 code units.
struct SearchHighlight: Sendable, Hashable {
    /// The index of the part in the message's `parts` (a text part's text, or a file part's name).
    var part: Int
    /// The matching word's place in that text, in UTF-16 code units (what JavaScript and `NSRange` count).
    var utf16Range: Range<Int>

    /// Every word of `message` that the query matches, part by part, in order of the text: a
    /// word equal to a query word, or beginning with the last one when that is a prefix.
    static func all(in message: Message, for query: MessageSearchQuery) -> [SearchHighlight] {
        let words = Set(query.words)
        let prefix = query.lastWordIsPrefix ? query.words.last : nil
        var highlights: [SearchHighlight] = []
        for (index, part) in message.parts.enumerated() {
            guard let text = SearchTokenizer.searchableText(of: part) else { continue }
            for token in SearchTokenizer.tokens(in: text) where words.contains(token.word) || prefix.map(token.word.hasPrefix) == true {
                highlights.append(SearchHighlight(part: index, utf16Range: token.utf16Range))
            }
        }
        return highlights
    }

    /// The API's form: `{"part": 0, "start": 4, "end": 9}`.
    var json: JSONValue {
        .object(["part": .int(part), "start": .int(utf16Range.lowerBound), "end": .int(utf16Range.upperBound)])
    }
}
