extension DocumentSession {
    /// Inserts `text` at UTF-16 offset `offset` (an `NSRange` location, a `UITextView` caret).
    /// - Throws: ``ParleyError/Code/invalidArgument`` when `offset` is outside the text or
    ///   splits a surrogate pair.
    public func insert(_ text: String, atUTF16 offset: Int) throws(ParleyError) {
        try insert(text, at: try UTF16Offsets.scalarOffset(ofUTF16: offset, in: replica.document.text))
    }

    /// Replaces the UTF-16 range `range` (an `NSRange` as `location..<location+length`) with
    /// `text`, as a text view's `shouldChangeTextIn` reports an edit.
    /// - Throws: ``ParleyError/Code/invalidArgument`` when either end is outside the text or
    ///   splits a surrogate pair.
    public func replace(utf16Range range: Range<Int>, with text: String) throws(ParleyError) {
        let current = replica.document.text
        let start = try UTF16Offsets.scalarOffset(ofUTF16: range.lowerBound, in: current)
        let end = try UTF16Offsets.scalarOffset(ofUTF16: range.upperBound, in: current)
        if end > start { try delete(at: start, count: end - start) }
        if !text.isEmpty { try insert(text, at: start) }
    }
}

extension DocumentSnapshot {
    /// The text's length in UTF-16 units (`NSString.length`).
    public var utf16Count: Int { text.utf16.count }
}
