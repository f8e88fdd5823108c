/// One word of a text as search sees it, with where it stands in the text.
public struct SearchToken: Sendable, Hashable {
    /// The word as indexed and matched: lowercased, Latin diacritics removed, an emoji as `u` and its hex code point.
    public let word: String
    /// Where the word's characters are in the text, in UTF-16 code units (what JavaScript and
    /// `NSRange` count), so a client can mark the match.
    public let utf16Range: Range<Int>

    /// A word at a range of UTF-16 code units.
    public init(word: String, utf16Range: Range<Int>) {
        self.word = word
        self.utf16Range = utf16Range
    }
}
