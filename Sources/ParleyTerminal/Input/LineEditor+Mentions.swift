/// `@name` completion: the word before the cursor and its replacement.
extension LineEditor {
    /// The id typed so far after an `@` that starts the word before the cursor, or nil when
    /// that word is no mention.
    public var mentionPrefix: String? {
        var start = cursor
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        guard start < cursor, characters[start] == "@" else { return nil }
        let typed = characters[(start + 1)..<cursor]
        return typed.contains("@") ? nil : String(typed)
    }

    /// Replaces the mention before the cursor with `@id`, and a space after it when `finished`.
    public mutating func completeMention(with id: String, finished: Bool) {
        guard let prefix = mentionPrefix else { return }
        let start = cursor - prefix.count
        let replacement = Array(id + (finished ? " " : ""))
        var text = characters
        text.replaceSubrange(start..<cursor, with: replacement)
        let caret = start + replacement.count
        set(String(text))
        for _ in caret..<text.count { apply(.left) }
    }
}
