/// What the indexes hold for a message: the words of its text parts.
enum SearchIndexText {
    /// The words of the text parts of a `messages.parts` value, space-separated (empty for
    /// tombstones and messages without text, or a value that does not decode).
    static func words(ofPartsJSON json: String) -> String {
        guard let parts = try? MessagePartsJSON.decode(json) else { return "" }
        return words(of: parts).joined(separator: " ")
    }

    /// The words of the text parts, in order; parts are separate as if on separate lines.
    static func words(of parts: [MessagePart]) -> [String] {
        var words: [String] = []
        for case .text(let text) in parts { words.append(contentsOf: SearchTokenizer.words(text)) }
        return words
    }
}
