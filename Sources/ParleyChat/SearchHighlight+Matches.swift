import ParleyStore

/// The server finds a hit's highlights with the same tokenizer that indexed it, and sends them
/// in the model's form (`{"part": 0, "start": 4, "end": 9}`) that the SDK reads back.
extension SearchHighlight {
    /// Every word of `message` that the query matches, part by part, in order of the text: a
    /// word equal to a query word, or beginning with the last one when that is a prefix.
    static func all(in message: Message, for query: MessageSearchQuery) -> [SearchHighlight] {
        let words = Set(query.words)
        let prefix = query.lastWordIsPrefix ? query.words.last : nil
        var highlights: [SearchHighlight] = []
        for (index, part) in message.parts.enumerated() {
            guard let text = SearchTokenizer.searchableText(of: part) else { continue }
            for token in SearchTokenizer.tokens(in: text) where words.contains(token.word) || prefix.map(token.word.hasPrefix) == true {
                highlights.append(SearchHighlight(part: index, start: token.utf16Range.lowerBound, end: token.utf16Range.upperBound))
            }
        }
        return highlights
    }
}
