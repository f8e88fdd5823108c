/// A search query cut into terms, each a phrase of one or more words, and written as each
/// engine's match expression.
struct SearchQuery: Equatable {
    /// The terms, all required; a term of several words matches them adjacent and in order.
    var terms: [[String]]

    /// The most terms a query may have; more would only slow the search down.
    static let maximumTerms = 16

    /// Cuts `text` at whitespace into terms; nil when no term has a searchable word.
    init?(_ text: String) {
        var terms: [[String]] = []
        for term in text.split(whereSeparator: \.isWhitespace) {
            let words = SearchTokenizer.words(String(term))
            if !words.isEmpty, !terms.contains(words) { terms.append(words) }
        }
        guard !terms.isEmpty else { return nil }
        self.terms = Array(terms.prefix(Self.maximumTerms))
    }

    /// Every word of the query, for highlighting.
    var words: Set<String> { Set(terms.joined()) }

    /// An FTS5 MATCH expression: each term a quoted phrase, joined by AND. The words never hold
    /// a double quote (ASCII punctuation separates words).
    var fts5Expression: String {
        terms.map { "\"" + $0.joined(separator: " ") + "\"" }.joined(separator: " AND ")
    }

    /// A `tsquery` in its text form: quoted lexemes, `<->` within a term, `&` between terms.
    /// The words never hold a quote or backslash, so quoting them is enough.
    var tsquery: String {
        terms.map { "(" + $0.map { "'" + $0 + "'" }.joined(separator: " <-> ") + ")" }.joined(separator: " & ")
    }

    /// Where the query's words appear in the text parts of `parts`, adjacent matches merged.
    func highlights(in parts: [MessagePart]) -> [SearchHighlight] {
        let wanted = words
        var highlights: [SearchHighlight] = []
        for (index, part) in parts.enumerated() {
            guard case .text(let text) = part else { continue }
            for token in SearchTokenizer.tokens(text) where wanted.contains(token.text) {
                if let last = highlights.last, last.part == index, last.end >= token.utf16.lowerBound {
                    highlights[highlights.count - 1].end = max(last.end, token.utf16.upperBound)
                } else {
                    highlights.append(SearchHighlight(part: index, start: token.utf16.lowerBound, end: token.utf16.upperBound))
                }
            }
        }
        return highlights
    }
}
